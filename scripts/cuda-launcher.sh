#!/usr/bin/env bash
# level-studio for a machine that may or may not have a GPU: runs the CUDA build where its
# libraries load (the NVIDIA driver's libcuda.so.1 and the CUDA wheels' cuBLAS, cuRAND and
# cudart), else the CPU build, saying once, on stderr, what was missing (docs/cuda.md,
# "Starting anywhere"). A cuda build links those libraries directly (candle 0.11 offers no
# run-time loading), so without them the loader stops it before main: only a launcher can
# choose. On the CPU build, `--device cuda` is refused in words and `auto` is the CPU.
#
# Environment (scripts/build-cuda.sh installs this file as bin/level-studio, with a
# level-studio.env beside it that sets the third; the environment wins over that file):
#   LEVEL_STUDIO_CUDA       the cuda build (default: level-studio-cuda beside this file)
#   LEVEL_STUDIO_CPU        the CPU build (default: level-studio-cpu beside this file)
#   LEVEL_STUDIO_CUDA_LIBS  the folder of the wheels' libraries, put first on LD_LIBRARY_PATH
#   LEVEL_STUDIO_QUIET      set to 1 to leave out the fallback's line
set -uo pipefail
here=$(cd "$(dirname "$(readlink -f "$0")")" && pwd)
if [[ -f $here/level-studio.env ]]; then
    # shellcheck source=/dev/null
    source "$here/level-studio.env"
fi
cuda=${LEVEL_STUDIO_CUDA:-$here/level-studio-cuda}
cpu=${LEVEL_STUDIO_CPU:-$here/level-studio-cpu}
libs=${LEVEL_STUDIO_CUDA_LIBS:-}
if [[ -n $libs ]]; then
    export LD_LIBRARY_PATH=$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
why=
if [[ ! -x $cuda ]]; then
    why="no cuda build at $cuda"
else
    # ldd lists each needed library, "not found" where the loader would stop.
    listing=$(ldd "$cuda" 2>&1)
    missing=$(awk '/not found/ {print $1}' <<<"$listing" | paste -sd ' ' -)
    if [[ -n $missing ]]; then
        why="missing $missing"
    elif ! grep -q '=>' <<<"$listing"; then
        why="ldd cannot read it: $(head -n 1 <<<"$listing")"
    fi
fi
if [[ -z $why ]]; then
    exec "$cuda" "$@"
fi
if [[ ! -x $cpu ]]; then
    echo "level-studio: the CUDA build cannot start here ($why), and there is no CPU build at $cpu (set LEVEL_STUDIO_CPU)" >&2
    exit 127
fi
if [[ ${LEVEL_STUDIO_QUIET:-0} != 1 ]]; then
    echo "level-studio: the CUDA build cannot start here ($why); running the CPU build" >&2
fi
exec "$cpu" "$@"
