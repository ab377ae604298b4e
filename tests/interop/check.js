// check.js — reads files posekit wrote with three.js's mmd-parser (npm) and
// compares every value with `posekit dump` of the same file.
//
//   node check.js FILE DUMP.json [FILE DUMP.json ...]
//
// VMD: mmd-parser reads the header, bones, morphs and cameras (it stops
// there); names, frames, interpolation bytes and every float must match
// exactly (JSON floats are the shortest text of a binary32, so
// Math.fround(json) must equal the float mmd-parser read).
// VPD: the caller decodes the text (three.js uses Shift_JIS = CP932); the
// numbers are "%f" text read as doubles by mmd-parser and as floats by
// posekit, so they must agree within float rounding.
// Exit status 0 when every file matches, 1 otherwise (details on stderr).
'use strict';
const fs = require('fs');
const path = require('path');
const { Parser } = require(path.join(__dirname, 'node_modules', 'mmd-parser'));

let failures = 0;
function fail(file, msg) {
    failures++;
    if (failures <= 30) console.error(`${file}: ${msg}`);
}

// Names posekit could not decode are shown with \xNN escapes: not comparable.
const comparable = (name) => !/\\x[0-9A-F]{2}/.test(name);

function sameFloat(file, what, json, value) {
    if (json === null) {
        if (Number.isFinite(value)) fail(file, `${what}: dump null, mmd-parser ${value}`);
        return;
    }
    if (Math.fround(json) !== value && !(Number.isNaN(value) && json === null))
        fail(file, `${what}: dump ${json}, mmd-parser ${value}`);
}

function sameFloats(file, what, json, values) {
    if (json.length !== values.length) return fail(file, `${what}: length differs`);
    json.forEach((x, i) => sameFloat(file, `${what}[${i}]`, x, values[i]));
}

function sameBytes(file, what, json, values) {
    const a = Array.from(values);
    if (a.length !== json.length || a.some((x, i) => x !== json[i]))
        fail(file, `${what}: dump [${json}], mmd-parser [${a}]`);
}

function checkVmd(file, dump) {
    const buf = fs.readFileSync(file);
    const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length);
    let vmd;
    try {
        vmd = new Parser().parseVmd(ab, false);
    } catch (e) {
        return fail(file, `mmd-parser rejects it: ${e}`);
    }
    if (comparable(dump.model) && vmd.metadata.name !== dump.model)
        fail(file, `model: dump '${dump.model}', mmd-parser '${vmd.metadata.name}'`);
    if (vmd.motions.length !== dump.bones.length)
        return fail(file, `bone keys: dump ${dump.bones.length}, mmd-parser ${vmd.motions.length}`);
    dump.bones.forEach((k, i) => {
        const m = vmd.motions[i];
        const w = `bone key ${i}`;
        if (comparable(k.name) && m.boneName !== k.name)
            fail(file, `${w} name: dump '${k.name}', mmd-parser '${m.boneName}'`);
        if (m.frameNum !== k.frame) fail(file, `${w} frame: ${k.frame} vs ${m.frameNum}`);
        sameFloats(file, `${w} pos`, k.pos, m.position);
        sameFloats(file, `${w} rot`, k.rot, m.rotation);
        sameBytes(file, `${w} interp`, k.interp, m.interpolation);
    });
    if (vmd.morphs.length !== dump.morphs.length)
        return fail(file, `morph keys: dump ${dump.morphs.length}, mmd-parser ${vmd.morphs.length}`);
    dump.morphs.forEach((k, i) => {
        const m = vmd.morphs[i];
        if (comparable(k.name) && m.morphName !== k.name)
            fail(file, `morph key ${i} name: dump '${k.name}', mmd-parser '${m.morphName}'`);
        if (m.frameNum !== k.frame) fail(file, `morph key ${i} frame`);
        sameFloat(file, `morph key ${i} weight`, k.weight, m.weight);
    });
    if (vmd.cameras.length !== dump.cameras.length)
        return fail(file, `camera keys: dump ${dump.cameras.length}, mmd-parser ${vmd.cameras.length}`);
    dump.cameras.forEach((k, i) => {
        const c = vmd.cameras[i];
        const w = `camera key ${i}`;
        if (c.frameNum !== k.frame) fail(file, `${w} frame`);
        sameFloat(file, `${w} distance`, k.distance, c.distance);
        sameFloats(file, `${w} pos`, k.pos, c.position);
        sameFloats(file, `${w} rot`, k.rot, c.rotation);
        sameBytes(file, `${w} interp`, k.interp, c.interpolation);
        if (c.fov !== k.fov) fail(file, `${w} fov`);
        if (c.perspective !== k.perspective) fail(file, `${w} perspective`);
    });
    return dump.bones.length + dump.morphs.length + dump.cameras.length;
}

function near(a, b) {
    return Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a));
}

function checkVpd(file, dump) {
    const text = new TextDecoder('shift_jis').decode(fs.readFileSync(file));
    let vpd;
    try {
        vpd = new Parser().parseVpd(text, false);
    } catch (e) {
        return fail(file, `mmd-parser rejects it: ${e}`);
    }
    if (vpd.bones.length !== dump.bones.length)
        return fail(file, `bones: dump ${dump.bones.length}, mmd-parser ${vpd.bones.length}`);
    // mmd-parser's metadata.parentFile is wrong for CRLF files (its line
    // split yields an empty line between CR and LF), so check line 3 here.
    const line3 = text.split(/\r\n|\n|\r/)[2] || '';
    if (comparable(dump.model) && !line3.startsWith(dump.model + '.osm;'))
        fail(file, `model: dump '${dump.model}', line 3 '${line3}'`);
    dump.bones.forEach((b, i) => {
        const v = vpd.bones[i];
        if (comparable(b.name) && v.name !== b.name)
            fail(file, `bone ${i} name: dump '${b.name}', mmd-parser '${v.name}'`);
        b.pos.forEach((x, j) => {
            if (!near(x, v.translation[j])) fail(file, `bone ${i} pos[${j}]: ${x} vs ${v.translation[j]}`);
        });
        b.rot.forEach((x, j) => {
            if (!near(x, v.quaternion[j])) fail(file, `bone ${i} rot[${j}]: ${x} vs ${v.quaternion[j]}`);
        });
    });
    return dump.bones.length;
}

const args = process.argv.slice(2);
if (args.length === 0 || args.length % 2) {
    console.error('usage: node check.js FILE DUMP.json [FILE DUMP.json ...]');
    process.exit(2);
}
let files = 0, records = 0;
for (let i = 0; i < args.length; i += 2) {
    const file = args[i];
    const dump = JSON.parse(fs.readFileSync(args[i + 1], 'utf8'));
    const n = dump.format === 'vmd' ? checkVmd(file, dump) : checkVpd(file, dump);
    files++;
    records += n || 0;
}
if (failures) {
    console.error(`${failures} mismatches`);
    process.exit(1);
}
console.log(`mmd-parser agrees with posekit dump: ${files} files, ${records} records`);
