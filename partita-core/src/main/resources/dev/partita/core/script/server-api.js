// The service's server-side JavaScript API (getContext(), the collection, request and response, __ and console),
// evaluated once per pooled context. Everything a script does to data goes through `host(op, a, b, c)`, a function
// the engine supplies, which answers JSON text; nothing else reaches outside the context.
(function (host) {
    'use strict';
    const global = globalThis;
    const parse = JSON.parse;
    const stringify = JSON.stringify;
    // GraalJS extras that are no part of the service's runtime
    for (const name of ['Java', 'Polyglot', 'Graal', 'print', 'printErr', 'load', 'loadWithNewGlobal', 'quit',
        'read', 'readline', 'readbuffer', 'console']) {
        delete global[name];
    }

    let current = null; // the execution in progress

    function scriptError(status, message) {
        const e = new Error(message);
        e.number = status;
        e.body = message;
        return e;
    }

    function text(v) {
        return v === undefined || v === null ? null : (typeof v === 'string' ? v : stringify(v));
    }

    // An asynchronous collection operation: runs now, answers whether it was accepted, calls back after the
    // script's function returns (as the service does) with (error, resource, responseOptions).
    function submit(op, a, b, c, callback) {
        if (current === null) {
            throw scriptError(400, 'Collection operations are only available while a script runs.');
        }
        const r = parse(host(op, text(a), text(b), text(c)));
        if (!r.accepted) {
            return false;
        }
        current.queue.push(function () {
            const err = r.error ? scriptError(r.error.number, r.error.message) : undefined;
            if (typeof callback === 'function') {
                callback.call(collection, err, r.resource, r.options || {});
            } else if (err) {
                throw err;
            }
        });
        return true;
    }

    function split(options, callback) {
        return typeof options === 'function' ? [undefined, options] : [options, callback];
    }

    function query(q) {
        return typeof q === 'string' ? {query: q} : q;
    }

    const collection = {
        getSelfLink() { return current.selfLink; },
        getAltLink() { return current.altLink; },
        createDocument(link, doc, options, callback) {
            [options, callback] = split(options, callback);
            return submit('create', String(link), doc === undefined ? null : stringify(doc), options, callback);
        },
        upsertDocument(link, doc, options, callback) {
            [options, callback] = split(options, callback);
            return submit('upsert', String(link), doc === undefined ? null : stringify(doc), options, callback);
        },
        replaceDocument(link, doc, options, callback) {
            [options, callback] = split(options, callback);
            return submit('replace', String(link), doc === undefined ? null : stringify(doc), options, callback);
        },
        deleteDocument(link, options, callback) {
            [options, callback] = split(options, callback);
            return submit('delete', String(link), null, options, callback);
        },
        readDocument(link, options, callback) {
            [options, callback] = split(options, callback);
            return submit('read', String(link), null, options, callback);
        },
        readDocuments(link, options, callback) {
            [options, callback] = split(options, callback);
            return submit('query', String(link), null, options, callback);
        },
        queryDocuments(link, q, options, callback) {
            [options, callback] = split(options, callback);
            if (q === undefined || q === null) {
                throw scriptError(400, 'queryDocuments needs a query: SQL text or {query, parameters}.');
            }
            return submit('query', String(link), query(q), options, callback);
        },
    };

    // __ : the collection's operations plus the documented filter/map/pluck/flatten/sortBy chain over the
    // partition's documents; each step's callback gets (error, feed, responseOptions)
    function steps(list) {
        function run(options, callback) {
            [options, callback] = split(options, callback);
            let feed = null;
            const accepted = submit('query', current.selfLink, null, null, function (err, docs) {
                if (err) {
                    if (callback) {
                        callback(err);
                        return;
                    }
                    throw err;
                }
                feed = docs;
                for (const s of list) {
                    feed = s(feed);
                }
                if (callback) {
                    callback(undefined, feed, {});
                }
            });
            return {isAccepted: accepted};
        }
        function key(p) {
            return typeof p === 'function' ? p : (d) => d[p];
        }
        function sorter(p, sign) {
            const k = key(p);
            return (feed) => feed.slice().sort((x, y) => (k(x) < k(y) ? -sign : k(x) > k(y) ? sign : 0));
        }
        return {
            filter: (p) => list.concat([(feed) => feed.filter((d) => p(d))]),
            map: (f) => list.concat([(feed) => feed.map((d) => f(d))]),
            pluck: (p) => list.concat([(feed) => feed.map((d) => d[p])]),
            flatten: (shallow) => list.concat([(feed) => shallow ? [].concat(...feed)
                : feed.flat(Infinity)]),
            sortBy: (p) => list.concat([sorter(p, 1)]),
            sortByDescending: (p) => list.concat([sorter(p, -1)]),
            run: run,
        };
    }
    function chain(list) {
        const s = steps(list);
        const c = {value: (options, callback) => s.run(options, callback)};
        for (const name of ['filter', 'map', 'pluck', 'flatten', 'sortBy', 'sortByDescending']) {
            c[name] = (arg) => chain(s[name](arg));
        }
        return c;
    }
    const __ = Object.create(collection);
    for (const name of ['filter', 'map', 'pluck', 'flatten', 'sortBy', 'sortByDescending']) {
        __[name] = function (arg, options, callback) {
            return steps(steps([])[name](arg)).run(options, callback);
        };
    }
    __.chain = () => chain([]);
    __.value = (options, callback) => steps([]).run(options, callback);

    const request = {
        getBody() { return current.requestBody; },
        setBody(body) {
            if (current.kind !== 'pre') {
                throw scriptError(400, 'Only a pre-trigger can change the request body.');
            }
            current.requestBody = body;
            current.requestChanged = true;
        },
        getOperationType() { return current.operation; },
        getValue(name) { return name === 'body' ? current.requestBody : undefined; },
        setValue(name, value) { if (name === 'body') { request.setBody(value); } },
    };
    const response = {
        getBody() { return current.responseBody; },
        setBody(body) { current.responseBody = body; },
        appendBody(s) {
            current.responseBody = (current.responseBody === undefined ? '' : String(current.responseBody)) + s;
        },
        getValue(name) { return name === 'Body' ? current.responseBody : undefined; },
        setValue(name, value) { if (name === 'Body') { response.setBody(value); } },
        appendValue(name, value) { if (name === 'Body') { response.appendBody(value); } },
        getMaxResponseBodySize() { return current.maxResponseBytes; },
        getCurrentResponseBodySize() {
            return current.responseBody === undefined ? 0 : stringify(current.responseBody).length;
        },
    };
    const context = {
        getCollection() { return collection; },
        getRequest() { return request; },
        getResponse() { return response; },
        // ends the script and rolls its transaction back; the one way to do so from a promise's callback, where a
        // throw only rejects the promise (the service's server-side API, Context.abort)
        abort(err) {
            if (current === null) {
                throw scriptError(400, 'abort is only available while a script runs.');
            }
            const reason = err === undefined ? new Error('The script was aborted.') : err;
            if (current.aborted === undefined) {
                current.aborted = {reason};
            }
            throw reason;
        },
    };

    global.getContext = function () { return context; };
    global.__ = __;
    function shown(v) {
        return typeof v === 'string' ? v : (typeof v === 'function' || v === undefined ? String(v) : stringify(v));
    }
    // console.log's format, as Node's and the browsers': %s %d %i %f %j %o %O and %% in a first string argument
    function format(parts) {
        if (typeof parts[0] !== 'string') {
            return parts.map(shown).join(' ');
        }
        let next = 1;
        const head = parts[0].replace(/%([sdifjoO%])/g, (match, c) => {
            if (c === '%') {
                return '%';
            }
            if (next >= parts.length) {
                return match;
            }
            const v = parts[next++];
            switch (c) {
                case 's': return typeof v === 'string' ? v : shown(v);
                case 'd': return String(Number(v));
                case 'i': return String(parseInt(v, 10));
                case 'f': return String(parseFloat(v));
                default: return shown(v);
            }
        });
        return [head].concat(parts.slice(next).map(shown)).join(' ');
    }
    global.console = {
        log(...parts) {
            if (current !== null && current.logging) {
                current.log.push(format(parts));
            }
        },
    };

    // pooled contexts serve one script after another: the built-ins and this API are frozen, so that no script can
    // change what the next one sees (a changed Array.prototype would otherwise outlive its script)
    for (const name of Object.getOwnPropertyNames(global)) {
        const v = global[name];
        if (name !== 'globalThis' && v !== global && v !== null && (typeof v === 'object' || typeof v === 'function')) {
            Object.freeze(v);
            if (v.prototype !== undefined && v.prototype !== null) {
                Object.freeze(v.prototype);
            }
        }
    }
    for (const o of [collection, __, request, response, context]) {
        Object.freeze(o);
    }
    Object.freeze(Object.getPrototypeOf(function* () {}));
    Object.freeze(Object.getPrototypeOf(async function () {}));

    // whatever a script leaves on the global object is removed before the context runs another
    const baseline = new Set(Object.getOwnPropertyNames(global));
    baseline.add('getContext');
    baseline.add('__');
    baseline.add('console');

    return {
        // An execution is driven by the host: start, then step until no callback is left, then finish (or end, when
        // it failed). Each is a call from the host, and the JavaScript runtime runs the promise jobs that are
        // due when a call returns: so a promise's callbacks run after the function and between collection callbacks,
        // as they do in the service's event loop, and can submit further operations.
        // kind: 'sproc' | 'pre' | 'post'
        start(kind, fn, argsJson, requestJson, responseJson, selfLink, altLink, operation, logging,
              maxResponseBytes) {
            current = {
                kind, selfLink, altLink, operation, logging, maxResponseBytes, queue: [], log: [],
                requestBody: requestJson === null ? undefined : parse(requestJson), requestChanged: false,
                responseBody: responseJson === null ? undefined : parse(responseJson), aborted: undefined,
            };
            const args = argsJson === null ? [] : parse(argsJson);
            fn.apply(undefined, Array.isArray(args) ? args : [args]);
        },
        // runs the next collection callback; false when none is left (and the promise jobs before it have run)
        step() {
            if (current.aborted !== undefined) {
                throw current.aborted.reason;
            }
            if (current.queue.length === 0) {
                return false;
            }
            current.queue.shift()();
            return true;
        },
        // {body, request, log} as JSON text; the execution is over
        finish() {
            const out = stringify({
                body: current.responseBody === undefined ? null : stringify(current.responseBody),
                request: current.requestChanged ? stringify(current.requestBody) : null,
                log: current.log.join('\n'),
            });
            current = null;
            return out;
        },
        // ends an execution that failed before its finish
        end() {
            current = null;
        },
        // a user-defined function over JSON arguments; undefined stays undefined
        udf(fn, argsJson) {
            const r = fn.apply(undefined, parse(argsJson));
            return r === undefined ? undefined : stringify(r);
        },
        errorStatus(e) {
            return e !== null && typeof e === 'object' && typeof e.number === 'number' ? e.number : 0;
        },
        reset() {
            for (const name of Object.getOwnPropertyNames(global)) {
                if (!baseline.has(name)) {
                    delete global[name];
                }
            }
        },
    };
})
