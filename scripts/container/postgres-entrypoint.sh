#!/bin/sh
# The entrypoint of postgres.Containerfile: on the first start (an empty PGDATA) a database cluster
# with POSTGRES_USER (password POSTGRES_PASSWORD, scram-sha-256 over TCP) and POSTGRES_DB, as the
# official image makes it; then PostgreSQL itself as the container's first process, as `postgres`.
set -eu
: "${POSTGRES_USER:=postgres}"
: "${POSTGRES_DB:=$POSTGRES_USER}"
: "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD must be set}"

if [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA" /var/run/postgresql
  chown postgres:postgres "$PGDATA" /var/run/postgresql
  chmod 0700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi

if [ ! -s "$PGDATA/PG_VERSION" ]; then
  pwfile="$(mktemp)"
  printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile"
  initdb --username="$POSTGRES_USER" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 \
    --encoding=UTF8 --locale=C.UTF-8 -D "$PGDATA" >/dev/null
  rm -f "$pwfile"
  echo 'host all all all scram-sha-256' >>"$PGDATA/pg_hba.conf"
  # The database, with the server listening on its socket only (pg_isready over TCP says no meanwhile).
  pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
  if [ "$POSTGRES_DB" != postgres ]; then
    psql -v ON_ERROR_STOP=1 -q --username="$POSTGRES_USER" --dbname=postgres \
      -c "CREATE DATABASE \"$POSTGRES_DB\" OWNER \"$POSTGRES_USER\""
  fi
  pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  echo "[postgres] initialized $PGDATA: user $POSTGRES_USER, database $POSTGRES_DB"
fi

if [ "${1:-}" = postgres ]; then
  shift
  exec postgres -c listen_addresses='*' "$@"
fi
exec "$@"
