#!/usr/bin/env bash
# Bounded memory at scale (issue 16, docs/reliability.md): a run of at least 20 GB on disk, many
# ops plus one float32 pair whose tensor is larger than a quarter of RAM, compared in one process.
# Prints the bytes, the largest pair, the peak RSS and its ratio to the largest pair.
#   bench/bounded_memory.sh BUILD_DIR WORK_DIR [TOTAL_GB]      (WORK_DIR needs TOTAL_GB free)
set -euo pipefail
build=$(cd "$1" && pwd)
work=$2
total_gb=${3:-20}
root=$(cd "$(dirname "$0")/.." && pwd)
dumpcmp=$build/cli/dumpcmp gen=$build/bench/dumpcmp_gen
mkdir -p "$work" && cd "$work"
rm -rf left right many

mem_bytes=$(($(awk '/MemTotal/ {print $2}' /proc/meminfo) * 1024))
# The big tensor: a quarter of RAM and a tenth more, in whole 64 MiB chunks.
chunk=$((64 << 20))
big_bytes=$(((mem_bytes / 4 + mem_bytes / 40) / chunk * chunk + chunk))
mkdir left right
# Written in chunks (dumpcmp_gen holds a tensor in memory): the header by protoc, the payload a
# repeated 64 MiB block of smooth values, the left side with a small relative error.
for side in left right; do
  protoc -I"$root/host/io" --encode=dumpcmp.wire.DumpData "$root/host/io/dump_data.proto" \
    > header.bin <<< "op_name: \"big\" output { data_type: 1 format: 2 shape { dim: $((big_bytes / 4)) } size: $big_bytes }"
  python3 - "$side/Mul.big.1.1.1700000000000000" "$big_bytes" "$side" <<'EOF'
import array, math, struct, sys
path, size, side = sys.argv[1], int(sys.argv[2]), sys.argv[3]
n = (64 << 20) // 4
block = array.array('f', (math.sin(i * 0.001) * (1.0003 if side == 'left' else 1.0) for i in range(n)))
header = open('header.bin', 'rb').read()
with open(path, 'wb') as f:
    f.write(struct.pack('<Q', len(header)) + header)
    for _ in range(size // (n * 4)):
        f.write(block)
EOF
done
rm header.bin
# The many ops: 2 x 4-16 MiB float32 tensors each, enough to reach TOTAL_GB with the big pair.
rest=$((total_gb * 1000000000 - 2 * big_bytes))
ops=$((rest / (2 * 2 * 9 * 1024 * 1024) + 1))  # 4-16 MiB: about 10 MiB a tensor
"$gen" --out many --ops "$ops" --min-elements 1048576 --max-elements 4194304 --dtypes float32 \
  --inputs 1 --noise 0.001 > /dev/null
mv many/left/* left/ && mv many/right/* right/ && rm -rf many
total=$(du -sb left right | awk '{s += $1} END {printf "%.0f", s}')

rm -rf out
python3 - "$dumpcmp" "$total" "$big_bytes" <<'EOF'
import resource, subprocess, sys, time
dumpcmp, total, big = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
start = time.time()
subprocess.run([dumpcmp, 'compare', '-m', 'left', '-g', 'right', '-out', 'out', '--device', 'cpu',
                '--quiet'], check=True)
wall = time.time() - start
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
pair = 2 * big
print(f'bounded memory: {total / 1e9:.1f} GB compared in {wall:.1f} s ({total / wall / 1e9:.2f} GB/s)')
print(f'  largest pair {pair / 2**30:.2f} GiB, peak RSS {peak / 2**30:.2f} GiB = '
      f'{peak / pair:.2f} x the largest pair (limit: 1.5 x + a few hundred MiB)')
EOF
rows=$(($(wc -l < out/result_*.csv) - 1))
echo "  $rows rows; $(grep -c ',big,' out/result_*.csv) of the big tensor"
