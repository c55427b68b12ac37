# Shared by the container scripts (sourced): Debian's podman configured for this host, and the
# base image's name. Issue 25; ../shared/research.md "Containers on these machines".
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
NODE_LTS_VERSION="${NODE_LTS_VERSION:-26.10.0}"
BASE_IMAGE="${BASE_IMAGE:-localhost/debian-node:$NODE_LTS_VERSION}"
IMAGE="${IMAGE:-localhost/forkmarket:latest}"
CACHE="$ROOT/node_modules/.cache/container"
mkdir -p "$CACHE"

# podman, buildah, runc and debootstrap from Debian when missing (no registry is reachable: the
# base image is made here from Debian packages and Node's build from the npm registry).
missing=()
for tool in podman buildah runc debootstrap; do command -v "$tool" >/dev/null || missing+=("$tool"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "[container] installing Debian's ${missing[*]}…"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq podman buildah runc debootstrap >/dev/null
fi

# This host: runc (crun refuses its cgroup hybrid), cgroupfs, file events, and ulimits no higher
# than the hard limits (there is no CAP_SYS_RESOURCE to raise them).
nofile="$(ulimit -Hn)"
nproc="$(ulimit -Hu)"
if [ "$nproc" = unlimited ] || [ "$nproc" -gt 32768 ]; then nproc=32768; fi
export CONTAINERS_CONF="$CACHE/containers.conf"
cat >"$CONTAINERS_CONF" <<CONF
[containers]
default_ulimits = ["nofile=$nofile:$nofile", "nproc=$nproc:$nproc"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
CONF

# Node's Linux build from the npm registry (bin/node only), cached like .ci/vitest-on-lts's.
node_lts_dir() {
  local arch
  case "$(uname -m)" in
    x86_64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) echo "[container] no Node build for $(uname -m) on the npm registry" >&2; return 1 ;;
  esac
  local dir="$ROOT/node_modules/.cache/node-lts/$NODE_LTS_VERSION"
  if [ ! -x "$dir/bin/node" ]; then
    echo "[container] fetching Node $NODE_LTS_VERSION (node-linux-$arch) from the npm registry…" >&2
    local tmp
    tmp="$(mktemp -d)"
    (cd "$tmp" && npm pack --silent "node-linux-$arch@$NODE_LTS_VERSION" >/dev/null)
    mkdir -p "$dir"
    tar xzf "$tmp"/node-linux-"$arch"-*.tgz -C "$dir" --strip-components=1
    rm -rf "$tmp"
  fi
  echo "$dir"
}
