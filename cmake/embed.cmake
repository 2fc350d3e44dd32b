# Turns a text file into a C source defining `const char bench_schema_sql[]`.
file(READ ${IN} HEX HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," BYTES "${HEX}")
file(WRITE ${OUT} "/* generated from schema.sql: do not edit */\nconst char bench_schema_sql[] = {${BYTES} 0x00};\n")
