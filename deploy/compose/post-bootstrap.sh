#!/bin/sh
# Run once by Patroni on the first primary, after initdb: the role and the database
# of the Yaniv servers. $1 is a connection URL for the superuser.
set -eu
psql "$1" -v ON_ERROR_STOP=1 -v pw="$YANIV_DB_PASSWORD" <<'SQL'
CREATE ROLE yaniv LOGIN PASSWORD :'pw';
CREATE DATABASE yaniv OWNER yaniv;
SQL
