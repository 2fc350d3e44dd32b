file(REMOVE_RECURSE
  "libbench_core.a"
)
