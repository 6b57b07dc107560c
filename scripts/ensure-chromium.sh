#!/bin/sh
# Make sure Debian's Chromium is present for the docs portal's browser test.
# Exit 0 when /usr/bin/chromium is usable; otherwise exit 1 with the reason on stderr
# (the test prints that reason and skips instead of failing the whole suite).
set -u
CHROMIUM=/usr/bin/chromium

if [ -x "$CHROMIUM" ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "ensure-chromium: $CHROMIUM is missing and we are not root, so apt-get cannot install it (run: sudo apt-get install -y chromium)" >&2
  exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: $CHROMIUM is missing and this system has no apt-get" >&2
  exit 1
fi
echo "ensure-chromium: installing chromium with apt-get" >&2
# Quiet, non-interactive install; apt's output goes to stderr so callers can keep stdout clean.
if ! { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium; } >&2; then
  echo "ensure-chromium: apt-get could not install chromium (offline or no package source?)" >&2
  exit 1
fi
if [ ! -x "$CHROMIUM" ]; then
  echo "ensure-chromium: apt-get finished but $CHROMIUM is still missing" >&2
  exit 1
fi
