// SPDX-License-Identifier: MIT
#include <proxima/mesh/io.hpp>

#include <proxima/core/error.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <tuple>

namespace proxima::mesh {
namespace {

std::string strip_comment(const std::string& line) {
  const auto hash = line.find('#');
  return hash == std::string::npos ? line : line.substr(0, hash);
}

// Welds points closer than `tol`: each point is hashed to a grid cell of side `tol` and compared
// with the points already stored in the 27 surrounding cells.
std::vector<int> weld(const std::vector<Vec3>& points, double tol, std::vector<Vec3>& unique) {
  std::map<std::tuple<long long, long long, long long>, std::vector<int>> grid;
  std::vector<int> index(points.size());
  const double cell = tol > 0 ? tol : 1;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const Vec3& p = points[i];
    const long long cx = std::llround(std::floor(p.x() / cell));
    const long long cy = std::llround(std::floor(p.y() / cell));
    const long long cz = std::llround(std::floor(p.z() / cell));
    int found = -1;
    for (long long dx = -1; dx <= 1 && found < 0; ++dx) {
      for (long long dy = -1; dy <= 1 && found < 0; ++dy) {
        for (long long dz = -1; dz <= 1 && found < 0; ++dz) {
          auto it = grid.find({cx + dx, cy + dy, cz + dz});
          if (it == grid.end()) continue;
          for (int u : it->second) {
            if ((unique[u] - p).norm() <= tol) {
              found = u;
              break;
            }
          }
        }
      }
    }
    if (found < 0) {
      found = static_cast<int>(unique.size());
      unique.push_back(p);
      grid[{cx, cy, cz}].push_back(found);
    }
    index[i] = found;
  }
  return index;
}

MeshData triangles_to_mesh(const std::vector<Vec3>& corners, double weld_tolerance) {
  if (corners.empty()) throw InvalidInput("stl", "has no triangles");
  Vec3 lo = corners[0], hi = corners[0];
  for (const Vec3& p : corners) {
    require_finite("stl vertex", p);
    lo = lo.cwiseMin(p);
    hi = hi.cwiseMax(p);
  }
  MeshData data;
  const std::vector<int> index = weld(corners, weld_tolerance * (hi - lo).maxCoeff(), data.vertices);
  for (std::size_t t = 0; t + 2 < corners.size(); t += 3) {
    const int a = index[t], b = index[t + 1], c = index[t + 2];
    // A triangle collapsed by welding has no area: drop it rather than fail validation on it.
    if (a == b || b == c || a == c) continue;
    data.faces.push_back({a, b, c});
  }
  return data;
}

}  // namespace

MeshData parse_obj(std::istream& in) {
  MeshData data;
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    std::istringstream ss(strip_comment(line));
    std::string tag;
    if (!(ss >> tag)) continue;
    const std::string field = "obj line " + std::to_string(line_no);
    if (tag == "v") {
      double x, y, z;
      if (!(ss >> x >> y >> z)) throw InvalidInput(field, "expected 'v x y z', got '" + line + "'");
      data.vertices.emplace_back(x, y, z);
    } else if (tag == "f") {
      std::vector<int> face;
      std::string corner;
      while (ss >> corner) {
        const std::string head = corner.substr(0, corner.find('/'));
        long idx = 0;
        try {
          std::size_t used = 0;
          idx = std::stol(head, &used);
          if (used != head.size()) throw std::invalid_argument(head);
        } catch (const std::exception&) {
          throw InvalidInput(field, "bad face corner '" + corner + "'");
        }
        if (idx == 0) throw InvalidInput(field, "face index 0 (OBJ indices start at 1)");
        const long n = static_cast<long>(data.vertices.size());
        face.push_back(static_cast<int>(idx > 0 ? idx - 1 : n + idx));
      }
      if (face.size() < 3) throw InvalidInput(field, "a face needs at least 3 corners");
      data.faces.push_back(std::move(face));
    }
  }
  return data;
}

MeshData parse_off(std::istream& in) {
  // Tokenise everything (comments stripped); OFF allows free line breaking.
  std::vector<std::string> tokens;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ss(strip_comment(line));
    std::string t;
    while (ss >> t) tokens.push_back(t);
  }
  std::size_t pos = 0;
  if (pos < tokens.size() && tokens[pos] == "OFF") ++pos;
  auto next_number = [&](const char* what) {
    if (pos >= tokens.size()) throw InvalidInput(std::string("off ") + what, "file ends early");
    try {
      return std::stod(tokens[pos++]);
    } catch (const std::exception&) {
      throw InvalidInput(std::string("off ") + what, "not a number: '" + tokens[pos - 1] + "'");
    }
  };
  auto next_count = [&](const char* what) {
    const double v = next_number(what);
    // The upper bound keeps the conversion to int defined (fuzz_mesh found "1e308" as a count).
    if (!(v >= 0) || v != std::floor(v) || v > std::numeric_limits<int>::max())
      throw InvalidInput(std::string("off ") + what, "bad count " + format_number(v));
    return static_cast<int>(v);
  };
  const int nv = next_count("vertex count");
  const int nf = next_count("face count");
  next_count("edge count");
  MeshData data;
  for (int i = 0; i < nv; ++i) {
    const double x = next_number("vertex"), y = next_number("vertex"), z = next_number("vertex");
    data.vertices.emplace_back(x, y, z);
  }
  for (int f = 0; f < nf; ++f) {
    const int k = next_count("face size");
    std::vector<int> face;
    for (int j = 0; j < k; ++j) face.push_back(next_count("face index"));
    data.faces.push_back(std::move(face));
  }
  return data;
}

MeshData parse_stl(const std::string& bytes, double weld_tolerance) {
  require_non_negative("weld_tolerance", weld_tolerance);
  std::vector<Vec3> corners;
  bool binary = false;
  if (bytes.size() >= 84) {
    std::uint32_t count = 0;
    std::memcpy(&count, bytes.data() + 80, 4);
    binary = bytes.size() == 84 + 50 * static_cast<std::size_t>(count);
  }
  if (binary) {
    std::uint32_t count = 0;
    std::memcpy(&count, bytes.data() + 80, 4);
    for (std::uint32_t t = 0; t < count; ++t) {
      const char* rec = bytes.data() + 84 + 50 * static_cast<std::size_t>(t);
      for (int c = 0; c < 3; ++c) {
        float xyz[3];
        std::memcpy(xyz, rec + 12 + 12 * c, 12);
        corners.emplace_back(xyz[0], xyz[1], xyz[2]);
      }
    }
  } else {
    std::istringstream ss(bytes);
    std::string tok;
    if (!(ss >> tok) || tok != "solid") throw InvalidInput("stl", "neither binary (size mismatch) nor ASCII ('solid')");
    while (ss >> tok) {
      if (tok != "vertex") continue;
      double x, y, z;
      if (!(ss >> x >> y >> z)) throw InvalidInput("stl vertex", "expected three numbers after 'vertex'");
      corners.emplace_back(x, y, z);
    }
    if (corners.size() % 3 != 0) throw InvalidInput("stl", "vertex count is not a multiple of 3");
  }
  return triangles_to_mesh(corners, weld_tolerance);
}

Mesh load_mesh(const std::string& path, const MeshOptions& options) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw InvalidInput("file", "cannot open '" + path + "'");
  std::string ext = path.substr(path.find_last_of('.') + 1);
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  MeshData data;
  if (ext == "obj") {
    data = parse_obj(file);
  } else if (ext == "off") {
    data = parse_off(file);
  } else if (ext == "stl") {
    std::ostringstream buffer;
    buffer << file.rdbuf();
    data = parse_stl(buffer.str());
  } else {
    throw InvalidInput("file", "unknown mesh extension '." + ext + "' (expected .obj, .off or .stl) in '" + path + "'");
  }
  return Mesh::from_faces(std::move(data.vertices), data.faces, options);
}

}  // namespace proxima::mesh
