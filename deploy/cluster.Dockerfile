# One image for the database side of deploy/compose.yaml: Debian's etcd, Patroni,
# PostgreSQL 15 and HAProxy, the same packages deploy/cluster.sh runs on one machine.
# Each service of the compose file runs one of them (its `command`).
FROM debian:bookworm-slim
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        etcd-server patroni postgresql-15 haproxy curl ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /var/lib/etcd /var/lib/postgresql/data \
 && chown postgres: /var/lib/etcd /var/lib/postgresql/data
COPY deploy/compose/patroni.yml /etc/patroni/patroni.yml
COPY deploy/compose/post-bootstrap.sh /etc/patroni/post-bootstrap.sh
COPY deploy/compose/haproxy.cfg /etc/haproxy/haproxy.cfg
COPY deploy/compose/errors/ /etc/haproxy/errors/
# PostgreSQL refuses root; etcd and HAProxy need no privilege either (ports > 1024).
USER postgres
