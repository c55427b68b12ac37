#!/usr/bin/env bash
# Builds the project's Dockerfile with Debian's podman on the base image made here
# (base-image.sh): `--pull=never`, since no registry is reachable. Prints the image's size.
source "$(dirname "$0")/env.sh"
bash "$ROOT/scripts/container/base-image.sh"

started=$SECONDS
echo "[container] building $IMAGE from the Dockerfile (base $BASE_IMAGE)…"
# --network host and the host's CA bundle (read-only, never copied into a layer): the build's
# `npm ci` reaches the npm registry as the host does. --format docker keeps HEALTHCHECK.
podman build --quiet --pull=never --format docker --network host \
  -v /etc/ssl/certs/ca-certificates.crt:/etc/ssl/certs/ca-certificates.crt:ro \
  --build-arg "BASE_IMAGE=$BASE_IMAGE" -t "$IMAGE" "$ROOT" >/dev/null
size="$(podman image inspect "$IMAGE" --format '{{.Size}}')"
echo "[container] built $IMAGE in $((SECONDS - started)) s: $((size / 1000000)) MB"
