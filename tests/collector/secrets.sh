#!/usr/bin/env bash
# tests/collector/secrets.sh - secrets planted where a real host keeps them must not reach the
# collector's bundle.
#
# Builds a configuration folder as an application server, a Hadoop client and an nginx front
# keep it (Java properties with =, : and blank separators and continued lines, minified JSON,
# Hadoop *-site.xml with <value> before <name>, Tomcat/Spring/.NET XML attributes, YAML block
# scalars, HTTP headers, nginx proxy headers, shell environment files, Docker and npm registry
# credentials, .netrc, .pgpass, a keystore, a PKCS#12 file, a keytab, PEM private keys, a
# binary file, and symbolic links to /, to a file and to a folder outside the folder), a file
# without secrets that must come through unchanged, starts processes whose command lines carry
# secrets (mysql -pPASS, --db-pass=, --password X, MYSQL_PWD=, URL credentials, curl headers
# and -u, sqlplus user/pass@, and a JVM with -Dpw=, -Dapi.auth=, a JDBC URL and secret program
# arguments), then:
#   1. runs the masker (mask.awk, taken from the collector) under gawk, mawk and BusyBox awk
#      over every text file and every command line: the three outputs must be identical and
#      hold no planted secret;
#   2. runs the collector with --config and --pid on them: with gawk (dash), mawk (bash),
#      BusyBox awk (dash), and a BusyBox-only userland (BusyBox sh, awk, ps, top, find, tar).
#      Every member of each tarball, decompressed, must hold no planted secret, the key names
#      and the non-secret values must still be there, and the files that are not copied
#      (key stores, keytabs, private keys, credential stores, binaries, symbolic links) must
#      be listed in the manifest with the reason.
# Each secret is a unique marker S3cr3t-NNN. Prints `measure leaks: ...` per awk and per run,
# and `N passed, N failed` last; exits 1 if anything failed.
#
# Needs: bash, busybox, gawk, mawk, tar with gzip, a JDK (java, javac, jcmd). Packages come
# from .ci/run; this script installs nothing. Without them it fails under RCA_HOST_TESTS=1 and
# is skipped otherwise.
set -u

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
collector=${RCA_COLLECTOR:-$repo/collector.sh} # override to test another copy
strict=${RCA_HOST_TESTS:-0}

# shellcheck source=tests/checks.sh
. "$here/../checks.sh"

missing=
for tool in busybox gawk mawk dash tar gzip java javac; do
    command -v "$tool" >/dev/null 2>&1 || missing="$missing $tool"
done
if [ -n "$missing" ]; then
    if [ "$strict" = 1 ]; then
        not_ok "prerequisites missing:$missing"
        echo "$passed passed, $failed failed"
        exit 1
    fi
    echo "skip    secrets suite needs:$missing"
    echo "$passed passed, $failed failed"
    exit 0
fi
busybox_bin=$(command -v busybox)
dash_bin=$(command -v dash)
bash_bin=$(command -v bash)

work=$(mktemp -d "${TMPDIR:-/tmp}/rca-secrets-test.XXXXXX") || exit 1
bg_pids=()
cleanup() {
    local p
    for p in "$work"/sleep.*; do [ -f "$p" ] && bg_pids+=("$(cat "$p")"); done
    for p in "${bg_pids[@]}"; do kill "$p" 2>/dev/null; done
    for p in "${bg_pids[@]}"; do wait "$p" 2>/dev/null; done
    rm -rf "$work"
}
trap cleanup EXIT

# --- the configuration folder ----------------------------------------------------------------
app=$work/etc/app
mkdir -p "$app/tls" "$app/data" "$app/hadoop" "$work/outside/shared"

cat >"$app/app.properties" <<'EOF'
# Application settings
db.url=jdbc:postgresql://db:5432/app
db.password=S3cr3t-001
ldap.bind.password S3cr3t-002
mail.smtp.password:S3cr3t-003
ssl.truststore.password=\
    S3cr3t-004
app.pwd=S3cr3t-005
smtp.pw = S3cr3t-006
service.apikey=S3cr3t-007
jwt.privatekey=S3cr3t-008
oracle.url=jdbc:oracle:thin:scott/S3cr3t-009@dbhost:1521/ORCL
mssql.url=jdbc:sqlserver://db:1433;databaseName=app;User Id=sa;Pwd=S3cr3t-010;
mysql.url=jdbc:mysql://app:S3cr3t-011@db:3306/app
pg.url=jdbc:postgresql://db/app?user=app&password=S3cr3t-012&ssl=true
http.extra.header=Authorization: Bearer S3cr3t-013
sample.session=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.S3cr3t-014-sig
client.api.key=S3cr3t-015
db.hosts=db1,\
    db2
server.port=8080
EOF

printf '%s\n' '{"user":"app","password":"S3cr3t-016","apiKey":"S3cr3t-017","oauth":{"client_id":"web","client_secret":"S3cr3t-018"},"pw":"S3cr3t-019","headers":{"Authorization":"Basic S3cr3t-020","Accept":"application/json"},"port":8443}' \
    >"$app/settings.json"

cat >"$app/hadoop/core-site.xml" <<'EOF'
<?xml version="1.0"?>
<configuration>
  <property><value>S3cr3t-021</value><name>fs.s3a.secret.key</name></property>
  <property>
    <value>S3cr3t-022</value>
    <name>hadoop.security.credstore.java-keystore-provider.password</name>
  </property>
  <property>
    <name>fs.defaultFS</name>
    <value>hdfs://nn1:8020</value>
  </property>
  <property><name>dfs.replication</name><value>3</value></property><property><name>dfs.datanode.keytab.password</name><value>S3cr3t-075</value></property>
</configuration>
EOF

cat >"$app/server.xml" <<'EOF'
<Server port="8005" shutdown="SHUTDOWN">
  <Connector port="8443" protocol="HTTP/1.1" SSLEnabled="true" keystoreFile="conf/app.keystore" keystorePass="S3cr3t-023"/>
  <Resource name="jdbc/app" auth="Container" username="app" password="S3cr3t-024" url="jdbc:postgresql://db/app"/>
  <bean id="ssl"><property name="javax.net.ssl.keyStorePassword" value="S3cr3t-025"/></bean>
  <appSettings><add key="ApiKey" value="S3cr3t-026"/><add key="Theme" value="dark"/></appSettings>
  <properties><entry key="db.password">S3cr3t-027</entry><entry key="db.user">app</entry></properties>
</Server>
EOF

cat >"$app/application.yaml" <<'EOF'
spring:
  datasource:
    username: app
    password: >
      S3cr3t-028
      continued
    private_key: |
      S3cr3t-029
  security:
    token: "S3cr3t-030"
users:
  - name: ops
    pwd: S3cr3t-031
vault:
  secret: |-
    S3cr3t-032
  secret_id:
    S3cr3t-076
server:
  port: 8080
EOF

cat >"$app/proxy.conf" <<'EOF'
location /api/ {
    proxy_pass http://backend;
    proxy_set_header Authorization "Bearer S3cr3t-033";
    proxy_set_header Cookie "sid=S3cr3t-034";
    proxy_set_header X-Api-Key S3cr3t-035;
    add_header Set-Cookie "session=S3cr3t-036; Path=/; HttpOnly";
    proxy_set_header X-Auth-Token "S3cr3t-037";
    proxy_set_header Host $host;
}
EOF

cat >"$app/request.http" <<'EOF'
POST /v1/orders HTTP/1.1
Host: api.example.com
Authorization: Basic S3cr3t-038
Cookie: JSESSIONID=S3cr3t-039; theme=dark
X-Api-Key: S3cr3t-040
Content-Type: application/json
EOF

cat >"$app/app.env" <<'EOF'
MYSQL_PWD=S3cr3t-041
export DB_PASS='S3cr3t-042'
APP_HOME=/opt/app
EOF

cat >"$app/startup.sh" <<'EOF'
#!/bin/sh
mysql -uroot -pS3cr3t-043 appdb </opt/app/schema.sql
curl -s -u deploy:S3cr3t-044 https://repo.example.com/app.tar.gz -o /tmp/app.tar.gz
./client login token 4f9b2c7e1d8a6f3bS3cr3t-045c0e9d2a7b
JAVA_OPTS="$JAVA_OPTS -Dpw=S3cr3t-046 -Dapi.auth=S3cr3t-047"
sqlplus -s scott/S3cr3t-048@ORCL @report.sql
exec java $JAVA_OPTS -jar /opt/app/app.jar
EOF

# Registry credentials: Docker's config.json and npm's .npmrc.
printf '%s\n' '{"auths":{"registry.example.com":{"auth":"S3cr3t-077"}},"credsStore":"pass"}' >"$app/docker-config.json"
printf '%s\n' '//registry.npmjs.org/:_authToken=S3cr3t-078' '_auth=S3cr3t-079' 'registry=https://registry.npmjs.org/' >"$app/.npmrc"

# Settings without a secret: every byte must survive.
cat >"$app/plain.conf" <<'EOF'
server.port=8080
hadoop.security.authentication=kerberos
key.serializer=org.apache.kafka.common.serialization.StringSerializer
ssl.keystore.type=JKS
ssl.keystore.location=/etc/app/tls/server.jks
proxy.bypass=localhost,127.0.0.1
listen http://[::1]:8080/status
unit /usr/lib/systemd/system/getty@tty1.service
mail.from=ops@example.com
log.pattern=%d{ISO8601} [%t] %-5p %c - %m%n
<add key="Theme" value="dark"/>
<Resource name="jdbc/app" type="javax.sql.DataSource" maxTotal="20"/>
{"user":"app","port":8443,"tags":["a","b"],"keyPrefix":"cache-"}
proxy_pass http://backend;
the bearer of good news
ssl.keyStoreType=PKCS12
kube-apiserver --anonymous-auth=false --tls-private-key-file=/etc/kubernetes/pki/apiserver.key --proxy-client-key-file=/etc/kubernetes/pki/front-proxy-client.key --request-timeout=300s --authentication-token-webhook-cache-ttl=2m
EOF

printf 'machine api.example.com login deploy password S3cr3t-049\n' >"$app/.netrc"
printf 'db:5432:app:app:S3cr3t-050\n' >"$app/.pgpass"
{
    echo '-----BEGIN PRIVATE KEY-----'
    echo 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7S3cr3t-051'
    echo '-----END PRIVATE KEY-----'
} >"$app/tls/server.key"
{
    echo '-----BEGIN CERTIFICATE-----'
    echo 'MIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaMQswCQYDVQQGEwJJ'
    echo '-----END CERTIFICATE-----'
    echo '-----BEGIN RSA PRIVATE KEY-----'
    echo 'MIIEowIBAAKCAQEAS3cr3t-052'
    echo '-----END RSA PRIVATE KEY-----'
} >"$app/tls/bundle.pem"
# Binary stores, each with its real magic number.
printf '\005\002\000\000\000\100\000\001\000\013EXAMPLE.COM\000\004HTTPS3cr3t-053\000\000\000\001' \
    >"$app/krb5.keytab"
printf '\376\355\376\355\000\000\000\002\000\000\000\001\000\000\000\001\000\005mykeyS3cr3t-054\000\000' \
    >"$app/tls/server.jks"
printf '\060\202\012\061\002\001\003\060\202\011\367\006\011S3cr3t-055\001\001' >"$app/tls/client.p12"
printf 'S3cr3t-056\n' >"$app/tls/app.truststore" # a text file: its name alone keeps it out
printf 'CACHE\000\000\001\002S3cr3t-059\000\377' >"$app/data/cache.bin"
# Links: to /, to a file and to a folder outside the configuration folder, and one inside it.
printf 'release notes S3cr3t-057\n' >"$work/outside/notes.txt"
printf 'note=S3cr3t-058\n' >"$work/outside/shared/shared.conf"
ln -s / "$app/rootfs"
ln -s "$work/outside/notes.txt" "$app/notes.txt"
ln -s "$work/outside/shared" "$app/shared"
ln -s app.properties "$app/current.properties"
# The folder is named through a link, as /etc/hadoop/conf -> /etc/alternatives/hadoop-conf.
ln -s "$app" "$work/app-conf"
cfg=$work/app-conf

# --- processes with secrets on their command lines -------------------------------------------
# sh waits for its sleep, so its argv is what ps and /proc show. The sleep's pid goes into a
# file: the cleanup stops it too (an orphaned sleep would hold the caller's output pipe open).
proc_pids=()
start_proc() {
    # shellcheck disable=SC2016 # expanded by the inner sh
    PIDF=$work/sleep.${#proc_pids[@]} sh -c 'sleep 600 & echo $! >"$PIDF"; wait' "$@" \
        </dev/null >/dev/null 2>&1 &
    bg_pids+=($!)
    proc_pids+=($!)
}
start_proc mysql -uroot -pS3cr3t-062 --host=db appdb
start_proc backup-agent --db-pass=S3cr3t-060 --password S3cr3t-061 MYSQL_PWD=S3cr3t-063 \
    --repo https://admin:S3cr3t-064@repo.example.com/backups
start_proc curl -H 'Authorization: Bearer S3cr3t-065' -H 'Cookie: sid=S3cr3t-072' \
    -u deploy:S3cr3t-073 https://api.example.com/v1/orders
start_proc sqlplus -s scott/S3cr3t-074@ORCL @report.sql

mkdir -p "$work/alloc"
jvm_pid=
if javac -d "$work/alloc" "$here/Alloc.java" 2>"$work/javac.err"; then
    (
        cd "$work/alloc" && exec java -Xmx32m -XX:+UseSerialGC -Dpw=S3cr3t-066 -Dapi.auth=S3cr3t-067 \
            -Djavax.net.ssl.keyStorePassword=S3cr3t-068 -Ddb.url=jdbc:mysql://app:S3cr3t-069@db:3306/x \
            -cp "$work/alloc" Alloc --api-key S3cr3t-070 --db-pass=S3cr3t-071 >"$work/alloc.out" 2>&1
    ) &
    bg_pids+=($!)
    jvm_pid=$!
else
    not_ok "javac Alloc.java"
    sed 's/^/    /' "$work/javac.err"
fi

# Every planted marker, from the files and the command lines above.
planted=$(
    {
        grep -rao 'S3cr3t-[0-9][0-9][0-9]' "$app" "$work/outside"
        grep -o 'S3cr3t-[0-9][0-9][0-9]' "$0"
    } | grep -o 'S3cr3t-[0-9]*' | sort -u
)
n_planted=$(wc -l <<<"$planted")
echo "measure planted: $n_planted secrets"
# leaks DIR: the planted markers found under DIR (every file, byte for byte).
leaks() {
    grep -rao 'S3cr3t-[0-9][0-9][0-9]' "$1" 2>/dev/null | grep -o 'S3cr3t-[0-9]*' | sort -u |
        grep -Fx -f <(printf '%s\n' "$planted")
}

# Wait until the JVM answers jcmd, so that the runs below can attach.
if [ -n "$jvm_pid" ]; then
    for _ in $(seq 1 60); do
        jcmd "$jvm_pid" VM.version >/dev/null 2>&1 && break
        sleep 1
    done
fi

# --- 1. the masker alone, under each awk ------------------------------------------------------
# mask.awk as the collector writes it.
awk '/^    cat >"\$state\/mask\.awk" <<.EOF.$/ { on = 1; next } on && /^EOF$/ { exit } on' \
    "$collector" >"$work/mask.awk"
check "mask.awk found in the collector" [ -s "$work/mask.awk" ]
# The inputs: the text files the collector copies (masked), the ps lines and the argv (one
# argument per line) of the processes.
mkdir -p "$work/in"
for f in app.properties settings.json hadoop/core-site.xml server.xml application.yaml proxy.conf \
    request.http app.env startup.sh .netrc tls/bundle.pem plain.conf docker-config.json .npmrc; do
    f2=${f//\//_}
    cp "$app/$f" "$work/in/${f2#.}"
done
ps -o args= -p "$(IFS=,; echo "${proc_pids[*]}${jvm_pid:+,$jvm_pid}")" >"$work/in/ps.txt"
for p in "${proc_pids[@]}" $jvm_pid; do
    tr '\0' '\n' <"/proc/$p/cmdline" >"$work/in/cmdline.$p"
done
for a in gawk mawk busybox; do
    mkdir -p "$work/masked/$a"
    for f in "$work"/in/*; do
        if [ "$a" = busybox ]; then
            "$busybox_bin" awk -f "$work/mask.awk" -v src=x <"$f" >"$work/masked/$a/${f##*/}"
        else
            "$a" -f "$work/mask.awk" -v src=x <"$f" >"$work/masked/$a/${f##*/}"
        fi
    done
    found=$(leaks "$work/masked/$a")
    n_in=$(cat "$work"/in/* | grep -o 'S3cr3t-[0-9]*' | sort -u | wc -l)
    echo "measure leaks: masker under $a: $(grep -c . <<<"$found") of $n_in secrets in its input"
    check "masker under $a: no planted secret in its output" [ -z "$found" ]
    [ -z "$found" ] || echo "    leaked: $(tr '\n' ' ' <<<"$found")"
done
check "masker: gawk, mawk and BusyBox awk write the same bytes" bash -c "
    diff -r '$work/masked/gawk' '$work/masked/mawk' && diff -r '$work/masked/gawk' '$work/masked/busybox'"

# What masking keeps: key names and non-secret values (gawk's output; the others are equal).
mo=$work/masked/gawk
has() { grep -qF -- "$2" "$1"; }
check "masker keeps properties keys and plain values" bash -c "
    grep -qxF 'db.url=jdbc:postgresql://db:5432/app' '$mo/app.properties' &&
    grep -qxF 'db.password=****' '$mo/app.properties' &&
    grep -qxF 'ldap.bind.password ****' '$mo/app.properties' &&
    grep -qxF 'server.port=8080' '$mo/app.properties' &&
    grep -qxF '    db2' '$mo/app.properties' &&
    grep -qxF 'mysql.url=jdbc:mysql://app:****@db:3306/app' '$mo/app.properties'"
check "masker keeps JSON keys and plain values" \
    has "$mo/settings.json" '{"user":"app","password":"****","apiKey":"****","oauth":{"client_id":"web","client_secret":"****"},"pw":"****","headers":{"Authorization":"****","Accept":"application/json"},"port":8443}'
check "masker keeps Hadoop names and plain values" bash -c "
    grep -qF '<name>fs.s3a.secret.key</name>' '$mo/hadoop_core-site.xml' &&
    grep -qF '<value>hdfs://nn1:8020</value>' '$mo/hadoop_core-site.xml' &&
    grep -qF '<property><name>dfs.replication</name><value>3</value></property><property><name>dfs.datanode.keytab.password</name><value>****</value></property>' '$mo/hadoop_core-site.xml'"
check "masker keeps XML attributes that are not secret" bash -c "
    grep -qF 'username=\"app\" password=\"****\"' '$mo/server.xml' &&
    grep -qF '<add key=\"ApiKey\" value=\"****\"/><add key=\"Theme\" value=\"dark\"/>' '$mo/server.xml' &&
    grep -qF '<entry key=\"db.password\">****</entry><entry key=\"db.user\">app</entry>' '$mo/server.xml'"
check "masker keeps YAML around block scalars" bash -c "
    grep -qxF '    password: >' '$mo/application.yaml' && grep -qxF '    username: app' '$mo/application.yaml' &&
    grep -qxF '  port: 8080' '$mo/application.yaml' && grep -qxF '  - name: ops' '$mo/application.yaml'"
check "masker keeps header names" bash -c "
    grep -qxF 'Authorization: ****' '$mo/request.http' &&
    grep -qxF 'Content-Type: application/json' '$mo/request.http' &&
    grep -qF 'proxy_set_header Host \$host;' '$mo/proxy.conf'"
check "masker leaves a file without secrets as it is" cmp "$app/plain.conf" "$mo/plain.conf"
check "masker keeps .netrc's words" \
    grep -qxF 'machine api.example.com login deploy password ****' "$mo/netrc"
check "masker keeps the PEM markers and the certificate" bash -c "
    grep -qxF -- '-----BEGIN RSA PRIVATE KEY-----' '$mo/tls_bundle.pem' &&
    grep -qxF 'MIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaMQswCQYDVQQGEwJJ' '$mo/tls_bundle.pem'"
check "masker keeps command names and options" bash -c "
    grep -qF 'mysql -uroot -p**** --host=db appdb' '$mo/ps.txt' &&
    grep -qF 'backup-agent --db-pass=**** --password **** MYSQL_PWD=**** --repo https://admin:****@repo.example.com/backups' '$mo/ps.txt'"

# --- 2. the collector, under each awk and BusyBox ---------------------------------------------
# PATH shims choose the awk; bin-bb holds nothing but BusyBox applets.
for a in gawk mawk; do
    mkdir -p "$work/shim-$a"
    ln -s "$(command -v "$a")" "$work/shim-$a/awk"
done
mkdir -p "$work/shim-bbawk" "$work/bin-bb"
ln -s "$busybox_bin" "$work/shim-bbawk/awk"
for a in $("$busybox_bin" --list); do ln -s "$busybox_bin" "$work/bin-bb/$a"; done

pids_args=()
for p in "${proc_pids[@]}" $jvm_pid; do pids_args+=(--pid "$p"); done
run_args=(--duration 1 --interval 1 --no-perf "${pids_args[@]}" --config "$cfg")
runs="gawk mawk bbawk busybox"
start_run() {
    local name=$1 path=$2
    shift 2
    mkdir -p "$work/run-$name/out"
    (
        env PATH="$path" "$@" "$collector" "${run_args[@]}" --output "$work/run-$name/out" \
            >"$work/run-$name/stdout" 2>"$work/run-$name/stderr"
        echo $? >"$work/run-$name/rc"
    ) &
    echo $! >"$work/run-$name/pid"
}
start_run gawk "$work/shim-gawk:$PATH" "$dash_bin"
start_run mawk "$work/shim-mawk:$PATH" "$bash_bin"
start_run bbawk "$work/shim-bbawk:$PATH" "$dash_bin"
start_run busybox "$work/bin-bb" "$busybox_bin" sh
for r in $runs; do wait "$(cat "$work/run-$r/pid")"; done

for r in $runs; do
    run=run-$r
    tb=$(tail -n 1 "$work/$run/stdout" 2>/dev/null)
    check "$r: exit status 0 and a tarball" bash -c "[ '$(cat "$work/$run/rc")' = 0 ] && [ -f '$tb' ]"
    [ -f "$tb" ] || { sed 's/^/    /' "$work/$run/stderr" | tail -n 20; continue; }
    x=$work/$run/x
    mkdir -p "$x"
    tar -xzf "$tb" -C "$x"
    top=$(echo "$x"/*)
    # Every member, and the compressed and uncompressed tarball itself.
    gzip -dc "$tb" >"$work/$run/bundle.tar"
    found=$(leaks "$x"; grep -ao 'S3cr3t-[0-9]*' "$work/$run/bundle.tar" "$tb" | grep -o 'S3cr3t-[0-9]*')
    found=$(printf '%s\n' "$found" | grep . | sort -u | grep -Fx -f <(printf '%s\n' "$planted"))
    echo "measure leaks: collector with $r: $(grep -c . <<<"$found") of $n_planted planted secrets in the bundle"
    check "$r: no planted secret in any member of the bundle" [ -z "$found" ]
    [ -z "$found" ] || echo "    leaked: $(tr '\n' ' ' <<<"$found")"
    for m in $found; do grep -rl -- "$m" "$x" | sed "s|^$x/|    $m in |" | head -n 3; done

    man=$top/manifest.tsv
    # note PATH: the manifest note of the artifact at PATH.
    note() { awk -F '\t' -v p="$1" '$1 == "artifact" && $2 == p { print $10 }' "$man"; }
    c=configs$cfg
    check "$r: properties keep their keys and plain values" bash -c "
        grep -qxF 'db.url=jdbc:postgresql://db:5432/app' '$top/$c/app.properties' &&
        grep -qxF 'db.password=****' '$top/$c/app.properties' &&
        grep -qxF 'server.port=8080' '$top/$c/app.properties'"
    check "$r: JSON keeps its keys and plain values" \
        grep -qF '{"user":"app","password":"****"' "$top/$c/settings.json"
    check "$r: Hadoop XML keeps names and plain values" bash -c "
        grep -qF '<value>hdfs://nn1:8020</value>' '$top/$c/hadoop/core-site.xml' &&
        grep -qF '<name>dfs.replication</name><value>3</value>' '$top/$c/hadoop/core-site.xml'"
    check "$r: a file without secrets is copied as it is" cmp "$app/plain.conf" "$top/$c/plain.conf"
    check "$r: YAML keeps the keys after a block scalar" \
        grep -qxF '  port: 8080' "$top/$c/application.yaml"
    check "$r: the redaction log names file and key, not the value" \
        grep -qxF "$cfg/app.properties$(printf '\t')db.password" "$top/redaction-log.tsv"
    for f in tls/server.jks tls/client.p12 tls/app.truststore krb5.keytab tls/server.key \
        tls/bundle.pem .netrc .pgpass data/cache.bin; do
        check "$r: $f not copied, the manifest says why" bash -c "
            [ ! -e '$top/$c/$f' ] && grep -q '^skipped: ' <<<'$(note "$c/$f")'"
    done
    check "$r: links recorded with their target, not followed" bash -c "
        grep -qF 'skipped: symbolic link to / ' <<<'$(note "$c/rootfs")' &&
        grep -qF 'skipped: symbolic link to $work/outside/notes.txt ' <<<'$(note "$c/notes.txt")' &&
        grep -qF 'skipped: symbolic link to app.properties ' <<<'$(note "$c/current.properties")'"
    check "$r: nothing copied from behind a link" bash -c "
        ! grep -q -e '^artifact	$c/rootfs/' -e '^artifact	$c/shared/' '$man' &&
        [ ! -e '$top/$c/rootfs' ] && [ ! -e '$top/$c/shared' ]"
    # ps (or BusyBox ps -o) and top, /proc/PID/cmdline, jps and jcmd: masked, names kept.
    ps_file=$top/system/ps.txt
    [ -s "$ps_file" ] || ps_file=$top/system/ps-o.txt
    check "$r: ps keeps command names and options" bash -c "
        grep -qF 'mysql -uroot -p**** --host=db appdb' '$ps_file' &&
        grep -qF 'backup-agent --db-pass=**** --password ****' '$ps_file'"
    check "$r: top goes through the masker" \
        grep -q '| awk -f mask.awk$' <<<"$(awk -F '\t' '$1 == "artifact" && $2 == "system/top.txt" { print $11 }' "$man")"
    if [ "$r" = busybox ]; then
        # BusyBox top prints whole command lines (procps top only the command names).
        check "$r: BusyBox top had secrets to mask" grep -q 'secrets masked' <<<"$(note system/top.txt)"
    fi
    check "$r: cmdline.txt of mysql keeps -uroot, masks -p" bash -c "
        grep -qxF -- -uroot '$top/proc/${proc_pids[0]}/cmdline.txt' &&
        grep -qxF -- '-p****' '$top/proc/${proc_pids[0]}/cmdline.txt'"
    if [ -n "$jvm_pid" ]; then
        j=$top/jvm/$jvm_pid
        check "$r: JVM system properties masked, others kept" bash -c "
            grep -qxF 'pw=****' '$j/vm-system-properties.txt' &&
            grep -qxF 'api.auth=****' '$j/vm-system-properties.txt' &&
            grep -q '^java.vm.name=' '$j/vm-system-properties.txt'"
        check "$r: JVM command line masked, flags kept" bash -c "
            grep -qF -- '-Dpw=**** -Dapi.auth=****' '$j/vm-command-line.txt' &&
            grep -qF -- '-Xmx32m' '$j/vm-command-line.txt'"
    fi
done

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
