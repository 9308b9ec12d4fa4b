"""NumPy's side of the maze-file compatibility test (driven by tests/numpy_compat.rs).

  python3 tests/numpy_compat.py check EXPORT_DIR MAZES.jsonl
      Loads every maze file `shapemaze generate --out EXPORT_DIR` wrote, with numpy.load,
      and checks dtype int64, C order, shape (size, size) and the cell codes (0 wall,
      1 path, 2 player, 3 goal) against the JSON lines `generate` printed.

  python3 tests/numpy_compat.py write DIR
      Saves the reference maze (REFERENCE below) with numpy in several dtypes, byte orders
      and format versions, plus files that must be refused (Fortran order, 3-D, a bad code).

Exits non-zero with one message per problem.
"""

import json
import os
import sys

import numpy as np

# The text encoding's symbols and the file's codes (note: 1 means wall in text, path in files).
CODE = {"1": 0, "0": 1, "P": 2, "G": 3}

# A 5x5 maze that is not symmetric, so a transposed (Fortran-order) read would show.
REFERENCE = ["1 0 0 P 1", "0 1 1 0 1", "0 0 0 0 1", "1 1 0 G 1", "1 1 1 1 1"]


def codes(rows):
    return np.array([[CODE[s] for s in row.split(" ")] for row in rows], dtype=np.int64)


def check(export_dir, jsonl):
    problems = []
    count = 0
    with open(jsonl, encoding="utf-8") as f:
        for line in f:
            maze = json.loads(line)
            n, shape, i = maze["size"], maze["shape"], maze["sample"]
            path = os.path.join(export_dir, "experiment_mazes", f"{n}x{n}", shape, f"{n}x{n}_{shape}_{i}.npy")
            arr = np.load(path)
            if arr.dtype != np.dtype("<i8"):
                problems.append(f"{path}: dtype {arr.dtype.str}, expected <i8")
            if arr.shape != (n, n):
                problems.append(f"{path}: shape {arr.shape}, expected {(n, n)}")
            if not arr.flags["C_CONTIGUOUS"]:
                problems.append(f"{path}: not C order")
            if not np.array_equal(arr, codes(maze["matrix"])):
                problems.append(f"{path}: values {arr.tolist()} differ from {maze['matrix']}")
            if arr[tuple(maze["player"])] != 2 or arr[tuple(maze["goal"])] != 3:
                problems.append(f"{path}: player or goal not where the JSON says")
            count += 1
    if count == 0:
        problems.append("no maze lines were given")
    for p in problems:
        print(p, file=sys.stderr)
    print(f"checked {count} maze files")
    return 1 if problems else 0


def write(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    ref = codes(REFERENCE)
    readable = {
        "int8": ref.astype(np.int8),
        "uint8": ref.astype(np.uint8),
        "int16": ref.astype(np.int16),
        "int32_big_endian": ref.astype(">i4"),
        "int64": ref,
        "uint64_big_endian": ref.astype(">u8"),
        "float32": ref.astype(np.float32),
        "float64": ref.astype(np.float64),
    }
    for name, arr in readable.items():
        np.save(os.path.join(out_dir, f"ok_{name}.npy"), arr)
    # Format version 2.0 (4-byte header length), as numpy writes for huge headers.
    with open(os.path.join(out_dir, "ok_version_2.npy"), "wb") as f:
        np.lib.format.write_array(f, ref, version=(2, 0))
    refused = {
        "fortran_order": np.asfortranarray(ref),
        "three_dimensional": ref.reshape(1, 5, 5),
        "bad_code": np.where(ref == 3, 7, ref),
        "half_values": ref.astype(np.float64) + 0.5,
        "strings": np.array([["1", "0"], ["P", "G"]]),
    }
    for name, arr in refused.items():
        np.save(os.path.join(out_dir, f"bad_{name}.npy"), arr)
    with open(os.path.join(out_dir, "reference.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(REFERENCE) + "\n")
    print(f"wrote {len(readable) + 1} readable and {len(refused)} refused files with numpy {np.__version__}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "check":
        sys.exit(check(sys.argv[2], sys.argv[3]))
    if len(sys.argv) == 3 and sys.argv[1] == "write":
        sys.exit(write(sys.argv[2]))
    print(__doc__, file=sys.stderr)
    sys.exit(2)
