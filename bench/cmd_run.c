/* cmd_run: placeholder while the command is written. */
#include "bench/cli.h"
#include "bench/commands.h"

int cmd_run(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_error(EXIT_INTERNAL, "'run' is not written yet");
}
