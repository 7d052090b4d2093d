#!/usr/bin/env bash
# Install what porlab needs, only what is missing: Debian packages (LLVM 19, Clang 19, clang-format/-tidy 19, Eigen,
# GoogleTest, Graphviz, ccache) and Python packages (build tools, test and analysis extras).
# Idempotent and fast when everything is already there.
set -euo pipefail

PYTHON=${PYTHON:-python3}
# C++ programs are compiled against libstdc++'s headers: clang-19 depends on the libstdc++-N-dev
# of the distribution's GCC (Debian 12: libstdc++-12-dev), so they come with it.
APT_PACKAGES=(llvm-19-dev clang-19 libclang-19-dev libclang-cpp19-dev libgtest-dev graphviz
              clang-format-19 clang-tidy-19 libeigen3-dev ccache)

missing=()
for p in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing Debian packages: ${missing[*]}"
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -q
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# Python: build tools first (the package is built without build isolation, against these).
if ! "$PYTHON" - <<'PY' 2>/dev/null
import importlib, sys
mods = ["pybind11", "scikit_build_core", "cmake", "ninja", "numpy", "pytest", "hypothesis",
        "nbmake", "nbclient", "ipykernel", "pandas", "pyarrow", "matplotlib", "distributed",
        "ruff", "xdist"]
missing = [m for m in mods if importlib.util.find_spec(m) is None]
sys.exit(1 if missing else 0)
PY
then
    echo "setup: installing Python packages"
    "$PYTHON" -m pip install -q --disable-pip-version-check \
        "pybind11>=2.12" "scikit-build-core>=0.10" "cmake>=3.20" ninja "numpy>=1.24" \
        "pytest>=8" "pytest-xdist>=3.5" "hypothesis>=6.100" "nbmake>=1.5" "nbclient>=0.10" \
        ipykernel \
        "pandas>=2.0" "pyarrow>=14" "matplotlib>=3.8" "dask[distributed]>=2024.1" "ruff>=0.5"
fi
