#!/bin/bash
# regs2.sh SRCDIR (the src/ folder): registers and spills of every tile shape the
# sm_90 tables use (potrf), each compiled alone (ptxas, no GPU), 2 at a time
src=$1
cfgs="double,4,7,1 double,4,8,1 double,4,10,1 double,8,5,2 double,8,6,3 double,8,7,2 double,8,8,2 double,8,8,1 double,8,9,1 double,8,10,1 double,8,11,1 double,8,12,1 double,8,13,1 double,16,7,2 double,16,8,2 float,4,10,1 float,8,5,2 float,8,6,3 float,8,7,2 float,8,8,2 float,8,9,2 float,8,10,2 float,8,11,1 float,8,13,1 float,8,14,1 double,8,14,1 float,8,15,1"
run() { IFS=, read T B M MINB <<< "$1"; f=/tmp/r_${T}_${B}_${M}_${MINB}_$2
  printf '#include "cuda/Batchol_CudaTileKernel.cuh"\ntemplate void batchol::cuda::launch_tile<%s,%s,%s,%s,batchol::cuda::Mode::Potrf>(const batchol::cuda::Batch<%s>&, cudaStream_t, int);\n' $T $B $M $MINB $T > $f.cu
  echo "$1 $(nvcc -arch=sm_90 -std=c++17 -O3 -I$3 -Xptxas -v -c $f.cu -o $f.o 2>&1 | grep -E 'registers|spill' | tr '\n' ' ' | sed -E 's/.*spill stores, ([0-9]+) bytes spill loads.*Used ([0-9]+) registers.*/spill=\1 regs=\2/')"; }
export -f run
echo $cfgs | tr ' ' '\n' | xargs -P 2 -I{} bash -c "run {} $(basename $src) $src"
