#!/usr/bin/env bash
# The base image the Dockerfile builds FROM here: Debian bookworm (minbase, from the machine's
# Debian mirror) with Node's current LTS from the npm registry and a `node` user (uid 1000).
# No container registry is reachable on these machines, so `FROM node:…` cannot be pulled.
# The image is cached as a tarball under node_modules/.cache/container (like Node's binary).
source "$(dirname "$0")/env.sh"

if podman image exists "$BASE_IMAGE"; then
  echo "[container] base image $BASE_IMAGE is present"
  exit 0
fi
tarball="$CACHE/debian-node-$NODE_LTS_VERSION.tar"
if [ -f "$tarball" ]; then
  echo "[container] loading the base image from $tarball"
  podman load --quiet -i "$tarball" >/dev/null
  exit 0
fi

started=$SECONDS
mirror="$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)"
mirror="${mirror:-http://deb.debian.org/debian}"
rootfs="$(mktemp -d)"
trap 'rm -rf "$rootfs"' EXIT
echo "[container] debootstrap bookworm (minbase) from $mirror…"
debootstrap --variant=minbase --include=libatomic1,ca-certificates bookworm "$rootfs" "$mirror" >"$CACHE/debootstrap.log" 2>&1 ||
  { tail -20 "$CACHE/debootstrap.log" >&2; exit 1; }

node_dir="$(node_lts_dir)"
install -m 0755 "$node_dir/bin/node" "$rootfs/usr/local/bin/node"
# npm for the build stage's `npm ci` (the Node package carries bin/node only).
npm_version="$(npm --version)"
tmp="$(mktemp -d)"
(cd "$tmp" && npm pack --silent "npm@$npm_version" >/dev/null)
mkdir -p "$rootfs/usr/local/lib/node_modules/npm"
tar xzf "$tmp"/npm-*.tgz -C "$rootfs/usr/local/lib/node_modules/npm" --strip-components=1
rm -rf "$tmp"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"

# The unprivileged user the app runs as (the official node images' uid and name).
echo 'node:x:1000:1000::/home/node:/bin/sh' >>"$rootfs/etc/passwd"
echo 'node:x:1000:' >>"$rootfs/etc/group"
echo 'node:*:20000:0:99999:7:::' >>"$rootfs/etc/shadow"
mkdir -p "$rootfs/home/node" && chown 1000:1000 "$rootfs/home/node"
# What an image never needs: package lists, caches, documentation.
rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/* "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* \
  "$rootfs"/usr/share/info/* "$rootfs"/var/log/*

tar -C "$rootfs" -c . | podman import --quiet \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD ["node"]' - "$BASE_IMAGE" >/dev/null
podman save --quiet -o "$tarball.tmp" "$BASE_IMAGE" && mv "$tarball.tmp" "$tarball"
echo "[container] base image $BASE_IMAGE made in $((SECONDS - started)) s ($(du -h "$tarball" | cut -f1))"
