/* Unpacks the search index the build writes (generator/lunrpack.py) into exactly the JSON that
   lunr.py serialised, for lunr.Index.load. Lossless: only the wire form is smaller. */
(function (root) {
  "use strict";
  var FORMAT = "digest-lunr/1";

  function postings(packed) {
    var fields = packed.fields;
    var entries = packed.terms.map(function (term, position) {
      var posting = { _index: position };
      fields.forEach(function (field) { posting[field] = {}; });
      var row = packed.postings[position];
      for (var at = 0; at < row.length; at += 2 + row[at + 1]) {
        var target = posting[fields[row[at]]];
        for (var i = 0, ref = 0; i < row[at + 1]; i++) {
          ref += row[at + 2 + i];
          target[ref] = {};
        }
      }
      return [term, posting];
    });
    // why: lunr's TokenSet builder needs the terms in order, as lunr.py wrote them
    return entries.sort(function (a, b) { return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0; });
  }

  function vectors(packed) {
    return packed.vectors.map(function (v) {
      var count = v[2];
      var elements = [];
      for (var i = 0, position = 0; i < count; i++) {
        position += v[3 + i];
        elements.push(position, v[3 + count + i] / 1000);
      }
      return [packed.fields[v[0]] + "/" + v[1], elements];
    });
  }

  /** lunr's serialised index from the packed one; an unpacked index passes through as it is. */
  function unpackIndex(packed) {
    if (packed.format === undefined) { return packed; }
    if (packed.format !== FORMAT) { throw new Error("unknown search index format " + packed.format); }
    return { version: packed.version, fields: packed.fields, fieldVectors: vectors(packed),
      invertedIndex: postings(packed), pipeline: packed.pipeline };
  }

  var api = { unpackIndex: unpackIndex, FORMAT: FORMAT };
  if (typeof module !== "undefined" && module.exports) { module.exports = api; } else { root.DigestIndex = api; }
}(typeof self !== "undefined" ? self : this));
