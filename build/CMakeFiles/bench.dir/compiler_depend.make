# Empty compiler generated dependencies file for bench.
# This may be replaced when dependencies are built.
