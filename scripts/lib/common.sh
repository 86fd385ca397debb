# Shared by scripts/run and scripts/test: install what is missing, configure and build.
# Sourced, not run. Honours BUILD_DIR (default: build) and CMAKE_ARGS (extra configure arguments).

set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD_DIR=${BUILD_DIR:-$ROOT/build}

# Debian 12 / Ubuntu 22.04+ package names. Build: compiler, CMake, Ninja, Qt 6, Boost.Context, GL headers,
# giflib (animated GIF export).
# Run and test: Mesa (software OpenGL), Xvfb for the GUI tests, Qt's image-format plugins.
DEB_PACKAGES=(
  build-essential cmake ninja-build pkg-config
  qt6-base-dev qt6-base-dev-tools libqt6opengl6-dev qt6-charts-dev qt6-image-formats-plugins qt6-qpa-plugins
  libboost-context-dev libgif-dev libgl-dev libegl-dev libgl1-mesa-dri libglx-mesa0 libegl-mesa0
  xvfb xauth fonts-dejavu-core ccache libdw-dev
  libqscintilla2-qt6-dev  # the kernel editor (ui/editor)
)

log() { printf '\033[1m[cudaviz]\033[0m %s\n' "$*" >&2; }

install_missing_packages() {
  if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
    log "not a Debian/Ubuntu system: install the equivalents of: ${DEB_PACKAGES[*]}"
    return 0
  fi
  local missing=()
  for p in "${DEB_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo=(sudo); else
      log "missing packages and neither root nor sudo: ${missing[*]}"; exit 1
    fi
  fi
  log "installing: ${missing[*]}"
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# The CUDA toolkit is optional; where it is installed but not on PATH, let CMake find nvcc.
add_cuda_to_path() {
  if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
    export PATH="/usr/local/cuda/bin:$PATH"
  fi
  if command -v nvcc >/dev/null 2>&1; then log "CUDA toolkit: $(command -v nvcc) (the CUDA backend is built too)"
  else log "no CUDA toolkit: building the CPU emulator only"; fi
}

# ccache as the compiler launcher (C, C++ and CUDA), its cache outside the clone (~/.cache/ccache): a
# rebuild after a pull, or CI's next fresh clone on the same machine, compiles only what changed. Paths
# are hashed relative to the clone (CCACHE_BASEDIR), so a clone elsewhere hits the same entries.
# CUDAVIZ_NO_CCACHE=1 turns it off.
compiler_launcher_args() {
  launcher_args=()
  if [ -z "${CUDAVIZ_NO_CCACHE:-}" ] && command -v ccache >/dev/null 2>&1; then
    export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$ROOT} CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
    export CCACHE_SLOPPINESS=${CCACHE_SLOPPINESS:-include_file_mtime,include_file_ctime,time_macros}
    launcher_args=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache
                   -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
  fi
}

configure_and_build() {
  local targets=("$@")
  add_cuda_to_path
  local gen=()
  [ -f "$BUILD_DIR/CMakeCache.txt" ] || gen=(-G Ninja)
  compiler_launcher_args
  # shellcheck disable=SC2086
  cmake -S "$ROOT" -B "$BUILD_DIR" "${gen[@]}" "${launcher_args[@]}" ${CMAKE_ARGS:-}
  local jobs
  jobs=$(nproc 2>/dev/null || echo 2)
  if [ ${#targets[@]} -gt 0 ]; then
    cmake --build "$BUILD_DIR" --parallel "$jobs" --target "${targets[@]}"
  else
    cmake --build "$BUILD_DIR" --parallel "$jobs"
  fi
}
