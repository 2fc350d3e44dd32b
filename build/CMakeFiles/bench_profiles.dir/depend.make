# Empty dependencies file for bench_profiles.
# This may be replaced when dependencies are built.
