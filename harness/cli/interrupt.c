// SPDX-License-Identifier: GPL-2.0
/* A sweep interrupted: see interrupt.h. */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "interrupt.h"
#include "thpset.h"

static char note[4200];		/* the line, made before any signal can come */
static pid_t owner;
static char scratch[8][PATH_MAX];	/* removed at a signal, in order */
static int nscratch;

static void on_signal(int sig)
{
	const char *name = sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "SIGHUP";

	if (getpid() == owner) {
		int i;

		for (i = 0; i < nscratch; i++)	/* a file, or a folder emptied before */
			if (unlink(scratch[i]))
				rmdir(scratch[i]);
		zf_thp_restore();
		/* write(2) alone: nothing here may take a lock */
		if (write(STDERR_FILENO, "\nhzfbench: ", 11) > 0 &&
		    write(STDERR_FILENO, name, strlen(name)) > 0)
			(void)!write(STDERR_FILENO, note, strlen(note));
	}
	/* SA_RESETHAND put the default back: die of the same signal once we return */
	raise(sig);
}

void zf_interrupt_scratch(const char *path)
{
	if (nscratch < (int)(sizeof(scratch) / sizeof(scratch[0])))
		snprintf(scratch[nscratch++], sizeof(scratch[0]), "%s", path);
}

void zf_interrupt_catch(const char *dir, const char *file)
{
	static const int signals[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESETHAND }, old;
	size_t i;

	snprintf(note, sizeof(note), ": stopped; %s left incomplete (%s \"complete\": false)\n",
		 dir, file);
	owner = getpid();
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(signals) / sizeof(signals[0]); i++) {
		if (!sigaction(signals[i], NULL, &old) && old.sa_handler == SIG_IGN)
			continue;
		sigaction(signals[i], &sa, NULL);
	}
}
