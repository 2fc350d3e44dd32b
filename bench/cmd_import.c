/* cmd_import: placeholder while the command is written. */
#include "bench/cli.h"
#include "bench/commands.h"

int cmd_import(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_error(EXIT_INTERNAL, "'import' is not written yet");
}
