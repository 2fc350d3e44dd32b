file(REMOVE_RECURSE
  "libbench_profiles.a"
)
