#!/usr/bin/env bash
# Issue 25: docker-compose.yml run here as it is deployed — PostgreSQL, the release step, 2 app
# replicas and nginx in front — with Debian's podman-compose, no registry reachable:
#  1. local images for PostgreSQL and nginx from Debian's packages when missing (postgres.Containerfile,
#     nginx.Containerfile; POSTGRES_IMAGE and NGINX_IMAGE choose others), the app image as built by
#     build.sh (not rebuilt here);
#  2. Debian's podman-compose when missing;
#  3. the compose `db` service, then the emulators on the host (tests/container/stand-ins.ts with that
#     database), listening on the compose network's gateway address, which the containers and this
#     host both reach by one URL (host.containers.internal is that address inside the containers);
#     the release step (`migrate`); the demo data;
#  4. `up` with 2 replicas, /healthz through nginx, both replicas answering (nginx's access log), the
#     pages, an image, the JSON API and a sign-in through nginx (compose-smoke.ts);
#  5. `down -v`, and the clean-up on any exit.
# podman-compose 1.0.3 (Debian bookworm) starts the services in dependency order but does not wait for
# depends_on's conditions, so the script brings them up in that order itself: db, then migrate (waited
# for), then the rest — what `docker compose up` does with the conditions.
#   bash scripts/container/compose-check.sh     (COMPOSE_CHECK_PORT: nginx's port, 3900)
# shellcheck source-path=SCRIPTDIR source=env.sh
source "$(dirname "$0")/env.sh"
cd "$ROOT"

port="${COMPOSE_CHECK_PORT:-3900}"
project="forkmarket-check-$port"
work="$CACHE/compose-$port"
rm -rf "$work" && mkdir -p "$work"
standins_pid=""
now_ms() { echo $(($(date +%s%N) / 1000000)); }
fail() {
  echo "[compose] FAILED: $*" >&2
  exit 1
}
total_started=$(now_ms)

export POSTGRES_IMAGE="${POSTGRES_IMAGE:-localhost/debian-postgres:15}"
export NGINX_IMAGE="${NGINX_IMAGE:-localhost/debian-nginx:1.22}"
export FORKMARKET_IMAGE="$IMAGE"
export FORKMARKET_ENV_FILE="$work/app.env"
export APP_REPLICAS=2
export HTTP_PORT="127.0.0.1:$port"
POSTGRES_PASSWORD="$(head -c 18 /dev/urandom | base64 | tr -d '/+=')"
export POSTGRES_PASSWORD

# 1. The images. The app's is build.sh's (this script never rebuilds it).
podman image exists "$IMAGE" || fail "no $IMAGE: build it first (bash scripts/container/build.sh)"
local_image() {
  local name="$1" containerfile="$2"
  if podman image exists "$name"; then return; fi
  local started
  started=$(now_ms)
  echo "[compose] building $name from Debian's packages ($containerfile)…"
  # --network host and the host's CA bundle: apt reaches the Debian mirror as the host does.
  podman build --quiet --pull=never --format docker --network host \
    -v /etc/ssl/certs/ca-certificates.crt:/etc/ssl/certs/ca-certificates.crt:ro \
    --build-arg "BASE_IMAGE=$BASE_IMAGE" -f "scripts/container/$containerfile" -t "$name" scripts/container >/dev/null
  echo "[compose] built $name in $((($(now_ms) - started) / 1000)) s"
}
if [[ "$POSTGRES_IMAGE" == localhost/debian-postgres:* ]]; then local_image "$POSTGRES_IMAGE" postgres.Containerfile; fi
if [[ "$NGINX_IMAGE" == localhost/debian-nginx:* ]]; then local_image "$NGINX_IMAGE" nginx.Containerfile; fi
for image in "$POSTGRES_IMAGE" "$NGINX_IMAGE" "$IMAGE"; do
  podman image exists "$image" || fail "no image $image (no registry is reachable to pull it)"
  echo "[compose] image $image: $(podman image inspect "$image" --format '{{.Size}}' | awk '{ printf "%d MB", $1 / 1000000 }')"
done

# 2. podman-compose (Debian's).
if ! command -v podman-compose >/dev/null; then
  echo "[compose] installing Debian's podman-compose…"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman-compose >/dev/null
fi
compose() { podman-compose -p "$project" -f docker-compose.yml "$@" >>"$work/compose.log" 2>&1; }
echo "[compose] $(podman-compose version 2>/dev/null | grep -m1 -io 'podman-composer? version *[0-9.]*' || echo podman-compose)"

# nginx's configuration is still the reference deployment's (scripts/cluster/nginx.ts).
node --import tsx scripts/container/nginx-conf-check.ts

cleanup() {
  local status=$?
  if [ "$status" -ne 0 ]; then
    echo "[compose] the last lines of each container's log (all of podman-compose's in $work/compose.log):" >&2
    for name in $(podman ps -a --filter "label=io.podman.compose.project=$project" --format '{{.Names}}'); do
      echo "--- $name" >&2
      podman logs --tail 15 "$name" >&2 2>&1 || true
    done
    tail -20 "$work/stand-ins.log" >&2 2>/dev/null || true
  fi
  compose down -v || true
  if [ -n "$standins_pid" ] && kill "$standins_pid" 2>/dev/null; then wait "$standins_pid" 2>/dev/null || true; fi
  # podman-compose 1.0.3's down leaves the network and, when a container could not be removed, its volume.
  podman network rm -f "${project}_default" >/dev/null 2>&1 || true
  podman volume rm -f "${project}_pgdata" >/dev/null 2>&1 || true
  rm -rf "$ROOT/.data-container-$port"
}
trap cleanup EXIT
# What an earlier run that was killed before its clean-up left.
compose down -v || true
podman network rm -f "${project}_default" >/dev/null 2>&1 || true
podman volume rm -f "${project}_pgdata" >/dev/null 2>&1 || true

# 3. PostgreSQL first, then the emulators with it.
up_started=$(now_ms)
compose up -d db || fail "podman-compose up db failed"
db="${project}_db_1"
for _ in $(seq 1 120); do
  podman exec "$db" pg_isready -q -h 127.0.0.1 -U forkmarket -d forkmarket 2>/dev/null && break
  sleep 0.5
done
podman exec "$db" pg_isready -q -h 127.0.0.1 -U forkmarket -d forkmarket || fail "PostgreSQL never became ready"
echo "[compose] db ready in $((($(now_ms) - up_started) / 1000)) s ($(podman exec "$db" postgres --version))"
db_ip="$(podman inspect "$db" --format '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}')"
gateway="$(podman network inspect "${project}_default" --format '{{range .Subnets}}{{.Gateway}}{{end}}')"

E2E_PORT="$port" node --import tsx tests/container/stand-ins.ts \
  --database-url "postgres://forkmarket:$POSTGRES_PASSWORD@$db_ip:5432/forkmarket" \
  --host "$gateway" \
  --write-env "$work/stand-ins.env" --migrated "$work/migrated" --ready "$work/ready" >"$work/stand-ins.log" 2>&1 &
standins_pid=$!
for _ in $(seq 1 120); do
  [ -f "$work/stand-ins.env" ] && break
  kill -0 "$standins_pid" 2>/dev/null || fail "the stand-ins did not start"
  sleep 1
done
[ -f "$work/stand-ins.env" ] || fail "the stand-ins wrote no environment"
# The containers' environment: no PORT (the image's 3000, which nginx's upstream names) and no
# DATABASE_URL (the compose file's, at `db`).
grep -vE '^(PORT|DATABASE_URL)=' "$work/stand-ins.env" >"$FORKMARKET_ENV_FILE"

# The release step, waited for (docker compose: the app's condition service_completed_successfully).
compose up -d migrate || fail "podman-compose up migrate failed"
migrate="${project}_migrate_1"
migrate_status="$(podman wait "$migrate")"
[ "$migrate_status" = 0 ] || fail "the release step exited $migrate_status: $(podman logs "$migrate" 2>&1 | tail -5)"
echo "[compose] the release step: $(podman logs "$migrate" 2>&1 | grep -o 'applied: [^"]*' | cut -c1-100)…"
touch "$work/migrated"
for _ in $(seq 1 240); do
  [ -f "$work/ready" ] && break
  kill -0 "$standins_pid" 2>/dev/null || fail "the stand-ins stopped"
  sleep 1
done
[ -f "$work/ready" ] || fail "the demo data was not loaded"

# 4. Everything: the replicas, then nginx.
rest_started=$(now_ms)
compose up -d || fail "podman-compose up failed"
echo "[compose] podman-compose up -d returned in $((($(now_ms) - rest_started) / 1000)) s"
base="http://localhost:$port"
# One answer is enough: asking again at once may meet nginx with both replicas still marked down
# (the one that was not up yet refused, the other had refused a moment earlier: 502, "no live upstreams").
healthy=
for _ in $(seq 1 600); do
  if curl -fsS -o /dev/null "$base/healthz" 2>/dev/null; then
    healthy=1
    break
  fi
  sleep 0.2
done
[ -n "$healthy" ] || fail "nginx never answered /healthz"
healthy_ms=$(now_ms)
echo "[compose] /healthz through nginx: $(((healthy_ms - rest_started) / 1000)).$((((healthy_ms - rest_started) % 1000) / 100)) s after \`up\` of app and nginx; $(((healthy_ms - up_started) / 1000)) s since \`up\` of db (emulators, release step and demo data included)"

mapfile -t replicas < <(podman ps --filter "label=io.podman.compose.project=$project" --filter "label=com.docker.compose.service=app" --format '{{.Names}}' | sort)
[ "${#replicas[@]}" -eq 2 ] || fail "${#replicas[@]} app replicas running, not 2: ${replicas[*]}"
for replica in "${replicas[@]}"; do
  for _ in $(seq 1 100); do
    podman healthcheck run "$replica" >/dev/null 2>&1 && break
    sleep 0.3
  done
  podman healthcheck run "$replica" >/dev/null || fail "$replica: the image's HEALTHCHECK failed"
  [ "$(podman inspect "$replica" --format '{{.Config.User}}')" = node ] || fail "$replica does not run as node"
done

node --import tsx scripts/container/compose-smoke.ts "$base" "$(sed -n 's/^SUPABASE_URL=//p' "$FORKMARKET_ENV_FILE")" || fail "the requests through nginx failed"

# Both replicas answered: the upstream addresses in nginx's access log are the replicas' addresses.
nginx="${project}_nginx_1"
podman logs "$nginx" >"$work/nginx.log" 2>&1
for replica in "${replicas[@]}"; do
  address="$(podman inspect "$replica" --format '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}')"
  count="$(grep -c "upstream=$address:3000" "$work/nginx.log" || true)"
  [ "$count" -gt 0 ] || fail "$replica ($address) answered no request through nginx"
  echo "[compose] $replica ($address:3000) answered $count requests through nginx"
done
echo "[compose] nginx's cache: $(grep -c 'cache=HIT' "$work/nginx.log" || true) hits, $(grep -c 'cache=MISS' "$work/nginx.log" || true) misses, $(grep -c 'cache=BYPASS' "$work/nginx.log" || true) bypassed (signed in)"

# 5. Down, volumes included.
down_started=$(now_ms)
compose down -v || fail "podman-compose down -v failed"
left="$(podman ps -a --filter "label=io.podman.compose.project=$project" --format '{{.Names}}')"
[ -z "$left" ] || fail "containers left after down: $left"
! podman volume exists "${project}_pgdata" || fail "the volume ${project}_pgdata is left after down -v"
echo "[compose] down -v: $((($(now_ms) - down_started) / 1000)) s"
echo "[compose] passed in $((($(now_ms) - total_started) / 1000)) s"
