# Folio behind Varnish 7 with vmod xkey (Debian: varnish, varnish-modules): current answers are kept until a
# publish purges their tags, pinned ones for a year, and nothing crosses tokens or is kept for a preview.
# Purges come from `folio purge-relay` (docs/operations.md "CDN"), which receives Folio's signed webhooks and
# sends `PURGE` with the event's keys in `xkey-purge`.
#
# Folio runs with TRUST_PROXY=1 (Varnish is the one proxy in front of it), CDN_MAX_AGE=86400 (current answers may
# be kept a day: purges reach them) and CDN_TAG_HEADER=surrogate-key (the default).
vcl 4.1;

import std;
import xkey;

backend folio {
    .host = "127.0.0.1";
    .port = "3000";
}

# Who may purge: the relay's address.
acl purgers {
    "127.0.0.1";
    "::1";
}

sub vcl_recv {
    if (req.method == "PURGE") {
        if (client.ip !~ purgers) {
            return (synth(403, "Forbidden"));
        }
        if (!req.http.xkey-purge) {
            return (synth(400, "xkey-purge is required"));
        }
        set req.http.x-purged = xkey.purge(req.http.xkey-purge);
        return (synth(200, "Purged " + req.http.x-purged));
    }
    # The management API, the inbox and form posts are never cached.
    if (req.method != "GET" && req.method != "HEAD") {
        return (pass);
    }
    if (req.url ~ "^/v1/spaces/" || req.url ~ "^/inbox" || req.url ~ "^/(healthz|readyz|metrics)") {
        return (pass);
    }
    # Delivery answers vary on Authorization (and Origin): Varnish keeps one object per token, so a request with a
    # token may be cached (the built-in VCL would pass every one). Cookies play no part in them.
    unset req.http.Cookie;
    return (hash);
}

sub vcl_backend_response {
    # Folio's purge tags, where xkey reads them.
    if (beresp.http.Surrogate-Key) {
        set beresp.http.xkey = beresp.http.Surrogate-Key;
    }
    # Folio's lifetime for shared caches: a year for pinned answers, CDN_MAX_AGE for current ones, until the next
    # opening or closing for an answer that shows a form.
    if (beresp.http.Surrogate-Control ~ "max-age=[0-9]+") {
        set beresp.ttl = std.duration(
            regsub(beresp.http.Surrogate-Control, "^.*max-age=([0-9]+).*$", "\1") + "s", 0s);
        set beresp.grace = 0s;
    }
    # Private answers (drafts, releases) and errors other than a pinned 404 are never stored.
    if (beresp.http.Cache-Control ~ "(?i)private|no-store") {
        set beresp.uncacheable = true;
        set beresp.ttl = 0s;
        return (deliver);
    }
}

sub vcl_deliver {
    if (obj.hits > 0) {
        set resp.http.X-Cache = "HIT";
    } else {
        set resp.http.X-Cache = "MISS";
    }
    # What the cache needed and the client does not.
    unset resp.http.xkey;
    unset resp.http.Surrogate-Key;
    unset resp.http.Surrogate-Control;
}
