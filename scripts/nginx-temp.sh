# An nginx of a script's own, on loopback, everything it writes (pid, error log, temporary
# bodies) in a folder of the script's. Sourced, not run:
#   . scripts/nginx-temp.sh
#   nginx_temp_start DIR WORKERS HTTP_BLOCK   # the http { } block's contents: upstreams, servers
#   nginx_temp_stop                           # SIGTERM, then SIGKILL after 5 s (safe twice)
#   port=$(free_port)                          # a free loopback port for a listen directive
# nginx_temp_start sets NGINX_PID (nginx runs in the foreground, as the script's job).

NGINX=${NGINX:-$(command -v nginx || echo /usr/sbin/nginx)}
NGINX_PID=

# A free loopback port (nginx cannot listen on port 0 and say which port it got).
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

nginx_temp_start() {
  local dir=$1 workers=$2 http=$3 user_line=
  [ -x "$NGINX" ] || { echo "no nginx (scripts/install-deps.sh installs nginx-light)" >&2; return 1; }
  mkdir -p "$dir"
  # As root the workers would run as nobody, who cannot enter the script's folder (mode 700).
  [ "$(id -u)" -ne 0 ] || user_line="user root;"
  cat >"$dir/nginx.conf" <<CONF
$user_line
worker_processes $workers;
daemon off;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $dir/body;
  proxy_temp_path $dir/proxy;
  fastcgi_temp_path $dir/fastcgi;
  uwsgi_temp_path $dir/uwsgi;
  scgi_temp_path $dir/scgi;
$http
}
CONF
  # -e: the error log before the configuration is read (the default is under /var/log).
  "$NGINX" -p "$dir" -e "$dir/error.log" -c "$dir/nginx.conf" &
  NGINX_PID=$!
}

# SIGTERM: the master stops its workers (a SIGKILLed master would leave them running).
nginx_temp_stop() {
  [ -n "$NGINX_PID" ] || return 0
  kill "$NGINX_PID" 2>/dev/null || true
  for _ in $(seq 50); do
    grep -q '^[0-9]* (.*) Z' "/proc/$NGINX_PID/stat" 2>/dev/null || [ ! -e "/proc/$NGINX_PID" ] && break
    sleep 0.1
  done
  kill -9 "$NGINX_PID" 2>/dev/null || true
  wait "$NGINX_PID" 2>/dev/null || true
  NGINX_PID=
}
