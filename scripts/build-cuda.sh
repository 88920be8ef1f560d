#!/usr/bin/env bash
# Builds level-studio with --features cuda on a machine without a system CUDA toolkit, from
# NVIDIA's CUDA 13.0 wheels on the Python package registry (docs/cuda.md, "Building with CUDA").
#
#   scripts/build-cuda.sh [--prepare-only] [CARGO FLAGS…]
#
# Default cargo flags: --release --locked --no-default-features --features cuda (the command line
# without the window). Environment:
#   CUDA_BUILD_DIR    where the toolkit venv, the link folder and the driver stub go
#                     (default ~/.cache/level-studio-cuda)
#   CUDA_COMPUTE_CAP  the GPU's compute capability, e.g. 90 for H100/H200, 80 for A100 (default 90;
#                     a binary runs on that capability only)
#   PYTHON            the Python that makes the venv (default python3)
# Nothing is downloaded at run time; the binary needs the NVIDIA driver (libcuda.so.1) and the
# wheels' libraries (printed at the end) to use a GPU.
set -euo pipefail

prepare_only=0
if [[ ${1:-} == --prepare-only ]]; then
    prepare_only=1
    shift
fi
cargo_flags=("$@")
if [[ ${#cargo_flags[@]} -eq 0 ]]; then
    cargo_flags=(--release --locked --no-default-features --features cuda)
fi

repo=$(cd "$(dirname "$0")/.." && pwd)
root=${CUDA_BUILD_DIR:-$HOME/.cache/level-studio-cuda}
venv=$root/venv
links=$root/lib
python=${PYTHON:-python3}
say() { echo "build-cuda: $*" >&2; }

# 1. The toolkit: nvcc and the libraries, CUDA 13.0 (cudarc 0.19 knows CUDA up to 13.4, and a
#    newer nvcc writes PTX an older driver's JIT refuses).
if [[ ! -x $venv/bin/python ]]; then
    say "making the toolkit venv in $venv"
    "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    "nvidia-cuda-nvcc==13.0.88" "nvidia-cuda-crt==13.0.88" "nvidia-nvvm==13.0.88" \
    "nvidia-cuda-runtime==13.0.96" "nvidia-cuda-nvrtc==13.0.88" "nvidia-cublas==13.1.0.3" \
    "nvidia-curand==10.4.0.35" "nvidia-cuda-cccl==13.0.85"
cu13=$("$venv/bin/python" -c 'import nvidia, os; print(os.path.join(list(nvidia.__path__)[0], "cu13"))')
if [[ ! -x $cu13/bin/nvcc ]]; then
    say "no nvcc at $cu13/bin/nvcc after installing the wheels"
    exit 1
fi
"$cu13/bin/nvcc" --version | tail -n 2 >&2

# 2. The link folder: the wheels hold only versioned names (libcublas.so.13); the linker wants
#    libcublas.so. cudarc looks in $CUDA_ROOT/lib.
mkdir -p "$links"
for lib in cublas cublasLt curand nvrtc cudart; do
    versioned=$(find "$cu13/lib" -maxdepth 1 -name "lib$lib.so.*" | sort | head -n 1)
    if [[ -z $versioned ]]; then
        say "the wheels have no lib$lib.so.N in $cu13/lib"
        exit 1
    fi
    ln -sf "$versioned" "$links/lib$lib.so"
done

# 3. A stub of the driver for the link step only (no driver library ships in a wheel): every
#    cu* function cudarc declares, each a function that does nothing. At run time the real
#    driver's libcuda.so.1 is loaded instead, since the stub's soname is libcuda.so.1.
(cd "$repo" && cargo fetch --locked >/dev/null)
sys=$(find "${CARGO_HOME:-$HOME/.cargo}/registry/src" -path '*/cudarc-0.19.*/src/driver/sys/mod.rs' | sort | tail -n 1)
if [[ -z $sys ]]; then
    say "cudarc 0.19's source was not found under ${CARGO_HOME:-$HOME/.cargo}/registry/src"
    exit 1
fi
grep -oE 'pub unsafe fn cu[A-Za-z0-9_]+' "$sys" | sed 's/pub unsafe fn //' | sort -u >"$root/driver-functions.txt"
count=$(wc -l <"$root/driver-functions.txt")
if [[ $count -lt 100 ]]; then
    say "found only $count driver functions in $sys: the stub would not link"
    exit 1
fi
sed 's/.*/void &(void) {}/' "$root/driver-functions.txt" >"$root/libcuda-stub.c"
gcc -shared -fPIC -Wl,-soname,libcuda.so.1 -o "$links/libcuda.so" "$root/libcuda-stub.c"
say "driver stub: $count functions from $sys"

export PATH=$cu13/bin:$PATH
export CUDA_ROOT=$root
export CUDA_COMPUTE_CAP=${CUDA_COMPUTE_CAP:-90}
export CUDAFORGE_THREADS=${CUDAFORGE_THREADS:-$(nproc)}
if [[ $prepare_only -eq 1 ]]; then
    say "prepared; to build: PATH=$cu13/bin:\$PATH CUDA_ROOT=$root CUDA_COMPUTE_CAP=$CUDA_COMPUTE_CAP cargo build ${cargo_flags[*]}"
    exit 0
fi

# 4. The build (about 26 minutes on 2 cores, most of it candle's kernels).
say "cargo build ${cargo_flags[*]} (CUDA_COMPUTE_CAP=$CUDA_COMPUTE_CAP)"
(cd "$repo" && cargo build "${cargo_flags[@]}")
say "built. To run it on a GPU machine with the NVIDIA driver installed:"
say "  LD_LIBRARY_PATH=$cu13/lib ${CARGO_TARGET_DIR:-target}/release/level-studio generate --device cuda …"

# 5. The launcher (docs/cuda.md, "Starting anywhere"): $root/bin/level-studio runs the cuda
#    build where the driver and the wheels' libraries load, else the CPU build beside it.
built=${CARGO_TARGET_DIR:-$repo/target}/release/level-studio
if [[ -x $built ]]; then
    bin=$root/bin
    mkdir -p "$bin"
    install -m 755 "$built" "$bin/level-studio-cuda"
    install -m 755 "$repo/scripts/cuda-launcher.sh" "$bin/level-studio"
    printf ': "${LEVEL_STUDIO_CUDA_LIBS:=%s}"\n' "$cu13/lib" >"$bin/level-studio.env"
    say "launcher: $bin/level-studio (put a CPU build beside it as $bin/level-studio-cpu,"
    say "  e.g. cargo build --release --locked && cp target/release/level-studio $bin/level-studio-cpu)"
fi
