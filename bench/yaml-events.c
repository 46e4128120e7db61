/*
 * yaml-events: the floor for reading a YAML file with libyaml.
 *
 *   yaml-events FILE
 *
 * Runs libyaml's event parser over FILE exactly as kubectl-dra's
 * snapshot reader feeds it (yaml_parser_set_input_file on a FILE *),
 * deletes every event, and keeps nothing else: no typing of scalars, no
 * cJSON trees, no model.  It prints the number of events and scalar
 * bytes so the work cannot be optimised away.  bench/snapshot.sh
 * compares its time with `kubectl-dra get ... --from FILE` on the same
 * file to tell the YAML parser's share from kubectl-dra's own.
 *
 * Build: cc -O2 -o yaml-events yaml-events.c $(pkg-config --cflags --libs yaml-0.1)
 */
#include <stdio.h>
#include <stdlib.h>

#include <yaml.h>

int
main(int argc, char **argv)
{
	yaml_parser_t		 p;
	yaml_event_t		 ev;
	FILE			*f;
	unsigned long long	 events = 0, scalar_bytes = 0;
	int			 done = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: yaml-events FILE\n");
		return 2;
	}
	if ((f = fopen(argv[1], "r")) == NULL) {
		perror(argv[1]);
		return 1;
	}
	if (!yaml_parser_initialize(&p)) {
		fprintf(stderr, "yaml-events: cannot start the parser\n");
		return 1;
	}
	yaml_parser_set_input_file(&p, f);
	while (!done) {
		if (!yaml_parser_parse(&p, &ev)) {
			fprintf(stderr, "yaml-events: %s:%zu:%zu: %s\n",
			    argv[1], p.problem_mark.line + 1,
			    p.problem_mark.column + 1,
			    p.problem ? p.problem : "syntax error");
			return 1;
		}
		events++;
		if (ev.type == YAML_SCALAR_EVENT)
			scalar_bytes += ev.data.scalar.length;
		done = ev.type == YAML_STREAM_END_EVENT;
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);
	fclose(f);
	printf("%llu events, %llu scalar bytes\n", events, scalar_bytes);
	return 0;
}
