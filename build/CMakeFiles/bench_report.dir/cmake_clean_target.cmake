file(REMOVE_RECURSE
  "libbench_report.a"
)
