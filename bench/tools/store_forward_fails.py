#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Loads that a store cannot forward to, found in a valgrind lackey trace (docs/benchmarks.md,
# session 32): a load that overlaps a store made within the last W instructions but is not
# contained in the youngest such store needs bytes of two stores (or of a store and memory), so
# on x86 it waits for the stores to commit (a store-forwarding stall: about a dozen cycles each,
# invisible to callgrind's instruction counts). A model, not the processor: it ignores alignment
# rules and assumes every store within W instructions is still in flight.
#   valgrind --tool=lackey --trace-mem=yes --log-file=TRACE ./ccd_warm_times cg CASE 8
#   bench/tools/store_forward_fails.py TRACE [W=150] [START=0] [BINARY]
# START: instructions to skip before counting (the set-up: `ccd_warm_times none CASE 8` under
# lackey gives its count). BINARY: the traced program (a PIE, which valgrind maps at 0x108000),
# to name the load's and the store's lines with addr2line (build it with -g for lines).
import collections
import subprocess
import sys

trace = sys.argv[1]
window = int(sys.argv[2]) if len(sys.argv) > 2 else 150
start = int(sys.argv[3]) if len(sys.argv) > 3 else 0
binary = sys.argv[4] if len(sys.argv) > 4 else None
kPieBase = 0x108000

stores = collections.deque()  # (instruction count, address, size, store's instruction address)
icount = 0
current = 0
loads = 0
pairs = collections.Counter()  # (load's instruction, store's instruction) -> failures
with open(trace, 'rb') as f:
    for line in f:
        if line.startswith(b'I'):
            icount += 1
            current = int(line[3:].split(b',')[0], 16)
            continue
        if len(line) < 3 or line[0] != 32:
            continue
        kind = line[1:2]
        address, size = line[3:].split(b',')
        address = int(address, 16)
        size = int(size)
        while stores and stores[0][0] < icount - window:
            stores.popleft()
        if kind in (b'L', b'M') and icount >= start:
            loads += 1
            for (_, sa, ss, si) in reversed(stores):
                if sa < address + size and address < sa + ss:
                    if not (sa <= address and address + size <= sa + ss):
                        pairs[(current, si)] += 1
                    break
        if kind in (b'S', b'M'):
            stores.append((icount, address, size, current))

names = {}


def where(ia):
    if binary is None or ia < kPieBase or ia >= 0x4000000:
        return hex(ia)
    if ia not in names:
        out = subprocess.run(['addr2line', '-f', '-C', '-i', '-e', binary, hex(ia - kPieBase)],
                             capture_output=True, text=True).stdout.split('\n')
        lines = [x.split('/')[-1].split(' ')[0] for x in out[1::2] if x]
        own = [x for x in lines if x and not x.startswith('??') and not x.endswith(':?')][-3:]
        names[ia] = ' < '.join(reversed(own)) if own else out[0][:60]
    return names[ia]


by_lines = collections.Counter()
for (li, si), n in pairs.items():
    by_lines[(where(li), where(si))] += n
print(f'instructions {icount} loads counted {loads} failures {sum(pairs.values())} (window {window})')
for (load, store), n in by_lines.most_common(30):
    print(f'{n:6d}  load {load}  <-  store {store}')
