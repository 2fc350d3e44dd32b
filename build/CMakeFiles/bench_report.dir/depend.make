# Empty dependencies file for bench_report.
# This may be replaced when dependencies are built.
