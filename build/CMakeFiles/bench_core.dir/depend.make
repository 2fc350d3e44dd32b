# Empty dependencies file for bench_core.
# This may be replaced when dependencies are built.
