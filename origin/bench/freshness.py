"""Renames goods at a fixed rate through the console's call and times how soon each new name is
found by search on every origin (`origin/bench/freshness`). Prints Markdown for BENCHMARKS.md.

Each write is `PUT /api/admin/goods/{id}` with a new name holding a token found nowhere else
(鲜测 and the run's and the write's numbers: 鲜测41523000123号); once it has answered (committed), a thread asks every origin's keyword list for
the token every 5 ms until the goods is there. "Found" is the time from the write's answer to
the first answer that holds the goods, per origin, and on every origin (the slowest of them).
"""

import argparse
import json
import random
import statistics
import threading
import time
import urllib.parse
import urllib.request

GIVE_UP = 10.0


def request(method, url, body=None, cookie=None):
    data = urllib.parse.urlencode(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        req.add_header("Content-Type", "application/x-www-form-urlencoded")
    if cookie:
        req.add_header("Cookie", cookie)
    with urllib.request.urlopen(req, timeout=30) as answer:
        return answer.headers, json.loads(answer.read())


def percentile(values, share):
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, required=True)
    parser.add_argument("--rate", type=float, required=True)
    parser.add_argument("--seconds", type=float, required=True)
    parser.add_argument("bases", nargs="+")
    args = parser.parse_args()

    headers, body = request("POST", args.bases[0] + "/api/admin/login", {"username": "bench", "password": "bench-password-1"})
    assert body["code"] == 10000, body
    cookie = "; ".join(c.split(";")[0] for c in headers.get_all("Set-Cookie"))

    ids = random.Random(7).sample(range(400, args.size), int(args.rate * args.seconds) + 1)
    writes = []  # (put seconds, {origin: found seconds or None})
    lock = threading.Lock()
    threads = []

    def watch(token, goods, written, found):
        pending = set(range(len(args.bases)))
        while pending and time.monotonic() - written < GIVE_UP:
            for origin in sorted(pending):
                _, answer = request("GET", args.bases[origin] + "/api/goods/list?keyword=" + urllib.parse.quote(token))
                if any(card["id"] == goods for card in answer["data"]["list"]):
                    with lock:
                        found[origin] = time.monotonic() - written
                    pending.discard(origin)
            time.sleep(0.005)

    # A name no earlier run gave: a write that changes nothing bumps no version.
    run = int(time.time()) % 100000
    started = time.monotonic()
    for n, goods in enumerate(ids):
        due = started + n / args.rate
        if due > started + args.seconds:
            break
        time.sleep(max(0.0, due - time.monotonic()))
        token = "鲜测%05d%06d号" % (run, n)
        base = args.bases[n % len(args.bases)]
        sent = time.monotonic()
        _, answer = request("PUT", "%s/api/admin/goods/%d" % (base, goods), {"name": token + "片"}, cookie)
        written = time.monotonic()
        assert answer["code"] == 10000, answer
        found = {}
        writes.append((written - sent, found))
        thread = threading.Thread(target=watch, args=(token, goods, written, found))
        thread.start()
        threads.append(thread)
    for thread in threads:
        thread.join()

    ms = lambda seconds: "%.0f ms" % (seconds * 1000)
    origins = len(args.bases)
    every = [max(found.values()) for _, found in writes if len(found) == origins]
    missed = sum(1 for _, found in writes if len(found) < origins)
    puts = [put for put, _ in writes]
    print("Renames: %d over %.0f s (%.1f a second), each answered in p50 %s, p99 %s; found on every one of the %d origins by %d, not within %.0f s by %d." % (
        len(writes), args.seconds, len(writes) / args.seconds, ms(percentile(puts, 0.5)), ms(percentile(puts, 0.99)), origins, len(every), GIVE_UP, missed))
    print()
    print("| from the write's answer to the first search that finds it | p50 | p90 | p99 | max |")
    print("|---|---:|---:|---:|---:|")
    for origin in range(origins):
        times = [found[origin] for _, found in writes if origin in found]
        print("| origin %d | %s | %s | %s | %s |" % (origin + 1, ms(percentile(times, 0.5)), ms(percentile(times, 0.9)), ms(percentile(times, 0.99)), ms(max(times) if times else float("nan"))))
    print("| **every origin** (the slowest of them) | %s | %s | **%s** | %s |" % (ms(percentile(every, 0.5)), ms(percentile(every, 0.9)), ms(percentile(every, 0.99)), ms(max(every) if every else float("nan"))))
    under = sum(1 for seconds in every if seconds <= 1.0)
    print()
    print("Found on every origin within 1 s: %d of %d writes (%.1f %%)." % (under, len(writes), 100.0 * under / max(1, len(writes))))


if __name__ == "__main__":
    main()
