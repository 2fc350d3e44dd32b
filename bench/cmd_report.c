/* cmd_report: placeholder while the command is written. */
#include "bench/cli.h"
#include "bench/commands.h"

int cmd_report(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_error(EXIT_INTERNAL, "'report' is not written yet");
}
