#!/usr/bin/env bash
# The Debian mirror this machine's apt uses, for make kernels: the first
# `deb` entry of its sources (/etc/apt/sources.list and sources.list.d/,
# one-line .list and deb822 .sources alike, read by apt itself: disabled
# entries and other files left out as apt leaves them) whose suite is a
# Debian release's own: this machine's codename (/etc/os-release) or
# oldstable, stable, testing, unstable, sid, experimental. A security
# archive (bookworm-security) and a third party's (nodistro) are not one.
# Prints its address without the trailing slash; none: one line, exit 1.
# apt's APT_CONFIG chooses other sources.
set -euo pipefail
codename=$(sed -n 's/^VERSION_CODENAME=//p' /etc/os-release 2>/dev/null | tr -d '"' | head -n 1)
# shellcheck disable=SC2016 # $(NAME) is apt's field, not the shell's
apt-get indextargets --no-release-info --format '$(TARGET_OF) $(RELEASE) $(REPO_URI)' |
	awk -v codename="$codename" '
		BEGIN { split("oldstable stable testing unstable sid experimental " codename, s, " ")
			for (i in s) suite[s[i]] = 1 }
		$1 == "deb" && ($2 in suite) { sub(/\/$/, "", $3); print $3; found = 1; exit }
		END { exit !found }' ||
	{ echo "hzfbench: kernels: no Debian mirror in this machine's apt sources (no deb entry of suite ${codename:+$codename, }stable, testing, unstable or sid): set KERNEL_MIRROR" >&2; exit 1; }
