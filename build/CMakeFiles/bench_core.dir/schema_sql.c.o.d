CMakeFiles/bench_core.dir/schema_sql.c.o: /work/main/build/schema_sql.c \
 /usr/include/stdc-predef.h
