# Empty dependencies file for bench_engines.
# This may be replaced when dependencies are built.
