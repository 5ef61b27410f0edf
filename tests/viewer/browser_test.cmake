# SPDX-License-Identifier: MIT
# ctest viewer_browser: the page of `proxima view` (tests/viewer/data/viewer_scene.json) and the demo
# page, opened in headless Chromium (browser_check.mjs). Skipped, with the reason printed, only when
# no browser can be started (exit 77). Takes about half a minute on two loaded cores.
find_program(PROXIMA_CHROMIUM NAMES chromium chromium-browser google-chrome)
set(chromium_arg "")
if(PROXIMA_CHROMIUM)
  set(chromium_arg --chromium ${PROXIMA_CHROMIUM})
endif()
add_test(NAME viewer_browser
  COMMAND ${PROXIMA_NODE} ${CMAKE_CURRENT_LIST_DIR}/browser_check.mjs
          --proxima $<TARGET_FILE:proxima_cli>
          --scene ${CMAKE_CURRENT_LIST_DIR}/data/viewer_scene.json
          --out-dir ${CMAKE_CURRENT_BINARY_DIR}/viewer_browser ${chromium_arg})
set_tests_properties(viewer_browser PROPERTIES SKIP_RETURN_CODE 77 LABELS "viewer;browser" TIMEOUT 360)
