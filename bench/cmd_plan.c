/* cmd_plan: placeholder while the command is written. */
#include "bench/cli.h"
#include "bench/commands.h"

int cmd_plan(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_error(EXIT_INTERNAL, "'plan' is not written yet");
}
