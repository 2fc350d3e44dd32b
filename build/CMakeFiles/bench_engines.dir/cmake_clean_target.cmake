file(REMOVE_RECURSE
  "libbench_engines.a"
)
