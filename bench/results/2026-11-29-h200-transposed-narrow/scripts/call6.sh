# Issue 16, call 6: the test problems below 0.90x with the new picks that
# ../../2026-11-29-h200-test-losers/ did not look at (and the new picks of
# two it did), by that study's calls 1 and 2 on the new library
# (.device/kernels-tn.tar.xz): the dispatcher's pick and its next seven
# candidates checked and timed beside cuBLASLt (scripts/candidates.txt,
# written here by the test-losers study's candidates.py from call 3's run 2,
# 5152x560x3800 f16 taken at the mean of the two new runs, 0.896x), then one
# launch each of the pick and of cuBLASLt's kernels under Nsight Compute
# (scripts/profile-shapes.txt).
set -u
D=bench/results/2026-11-29-h200-transposed-narrow/scripts
T=bench/results/2026-11-29-h200-test-losers/scripts
CANDIDATES=$D/candidates.txt LIB=tn C=call6-candidates bash $T/call1.sh
SHAPES=$D/profile-shapes.txt LIB=tn C=call6-profile bash $T/call2.sh
