#!/usr/bin/env python3
# What a wasm holds, by the function names rustc leaves in it (cargo's output, before
# trunk's wasm-opt strips them): code bytes per crate and module path, generic impls
# attributed to the first shapemaze path they name. twiggy does this and more, but is not
# installed here; this needs only Python. Usage (after `make build-release`):
#   python3 scripts/wasm-sizes.py target/wasm32-unknown-unknown/wasm-release/shapemaze-people.wasm [DEPTH] [ROWS]
# DEPTH: path segments kept (2: `shapemaze_web::study`), ROWS: how many lines (40).
import sys, re, collections
def leb(b, i):
    r = s = 0
    while True:
        x = b[i]; i += 1
        r |= (x & 0x7f) << s; s += 7
        if x < 0x80: return r, i
data = open(sys.argv[1], 'rb').read()
i = 8; nimports = 0; bodies = []; names = {}
while i < len(data):
    sid = data[i]; i += 1
    size, i = leb(data, i); end = i + size
    if sid == 2:
        n, j = leb(data, i)
        for _ in range(n):
            l, j = leb(data, j); j += l
            l, j = leb(data, j); j += l
            kind = data[j]; j += 1
            if kind == 0: _, j = leb(data, j); nimports += 1
            elif kind == 1: j += 1; f, j = leb(data, j); _, j = leb(data, j); 
            elif kind == 2:
                f, j = leb(data, j); _, j = leb(data, j)
                if f & 1: _, j = leb(data, j)
            elif kind == 3: j += 2
    elif sid == 10:
        n, j = leb(data, i)
        for _ in range(n):
            l, j = leb(data, j); bodies.append(l); j += l
    elif sid == 0:
        l, j = leb(data, i); nm = data[j:j+l].decode(); j += l
        if nm == 'name':
            while j < end:
                sub = data[j]; j += 1
                sl, j = leb(data, j); se = j + sl
                if sub == 1:
                    n, k = leb(data, j)
                    for _ in range(n):
                        idx, k = leb(data, k); l2, k = leb(data, k)
                        names[idx] = data[k:k+l2].decode('utf8', 'replace'); k += l2
                j = se
    i = end
depth = int(sys.argv[2]) if len(sys.argv) > 2 else 2
agg = collections.Counter(); total = 0
for k, sz in enumerate(bodies):
    nm = names.get(k + nimports, '?')
    m = re.match(r'_ZN((?:\d+[^\d]\S*?)+)E', nm)
    parts = []
    if m:
        s = m.group(1); p = 0
        while p < len(s) and s[p].isdigit() and len(parts) < depth:
            q = p
            while s[q].isdigit(): q += 1
            L = int(s[p:q]); parts.append(s[q:q+L]); p = q + L
    key = '::'.join(parts) if parts else nm[:40]
    # generic impls: <T as Trait>: attribute to first path mentioned
    if nm.startswith('_ZN') and '$LT$' in nm:
        mm = re.search(r'(shapemaze_\w+?)\.\.(\w+)', nm)
        if mm: key = mm.group(1) + '::' + mm.group(2) + ' (impl)'
    agg[key] += sz; total += sz
for k, v in agg.most_common(int(sys.argv[3]) if len(sys.argv) > 3 else 40):
    print(f'{v:9d} {100*v/total:5.1f}% {k}')
print(total, 'total code bytes')
