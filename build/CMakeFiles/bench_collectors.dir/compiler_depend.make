# Empty compiler generated dependencies file for bench_collectors.
# This may be replaced when dependencies are built.
