file(REMOVE_RECURSE
  "libbench_collectors.a"
)
