/**
 * Build steps after `n8n-node build` (tsc + icons):
 *  - prune: keep in dist/ only what n8n loads (nodes, credentials, icons);
 *  - verify: check dist/ the way n8n's loader reads it. n8n loads a community package all or
 *    nothing: one listed file that is missing, a class not exported under the file's base name,
 *    a missing icon or codex file, and the whole package (credential included) silently fails to
 *    load in the user's n8n. Better to fail the build here.
 */
const { series, src } = require('gulp');
const fs = require('node:fs');
const path = require('node:path');
const { Transform } = require('node:stream');

const root = __dirname;
const pkg = require('./package.json');

// What n8n loads from the package; anything else in dist/ is noise users would download.
const PUBLISHED = new Set(['nodes', 'credentials', 'icons']);

function prune() {
	// `n8n-node build` copies every *.png/*.svg of the repository into dist/ (docs charts,
	// bench output included) and tsc leaves its build caches there.
	const dist = path.join(root, 'dist');
	for (const entry of fs.readdirSync(dist)) {
		if (!PUBLISHED.has(entry)) fs.rmSync(path.join(dist, entry), { recursive: true, force: true });
	}
	return src('dist/**/*.tsbuildinfo', { allowEmpty: true, read: false }).pipe(
		new Transform({
			objectMode: true,
			transform(file, _enc, done) {
				fs.rmSync(file.path);
				done();
			},
		}),
	);
}

function iconFiles(description, fromDir) {
	const icon = description.icon;
	const values = typeof icon === 'string' ? [icon] : icon ? Object.values(icon) : [];
	return values
		.filter((value) => value.startsWith('file:'))
		.map((value) => path.resolve(fromDir, value.slice('file:'.length)));
}

function loadClass(file) {
	const absolute = path.join(root, file);
	if (!fs.existsSync(absolute))
		throw new Error(`${file} is listed in package.json but was not built`);
	const className = path.basename(file).split('.')[0];
	delete require.cache[require.resolve(absolute)];
	const Exported = require(absolute)[className];
	if (typeof Exported !== 'function') {
		throw new Error(
			`${file} must export a class named ${className} (n8n looks it up by the file name)`,
		);
	}
	return { absolute, instance: new Exported() };
}

async function verify() {
	const problems = [];
	const check = (condition, message) => condition || problems.push(message);

	for (const file of pkg.n8n.credentials) {
		const { absolute, instance } = loadClass(file);
		for (const icon of iconFiles(instance, path.dirname(absolute))) {
			check(fs.existsSync(icon), `${file}: icon ${path.relative(root, icon)} is missing from dist`);
		}
	}

	for (const file of pkg.n8n.nodes) {
		const { absolute, instance } = loadClass(file);
		const description = instance.description;
		check(!('execute' in instance), `${file}: declarative nodes have no execute()`);
		for (const icon of iconFiles(description, path.dirname(absolute))) {
			check(fs.existsSync(icon), `${file}: icon ${path.relative(root, icon)} is missing from dist`);
		}
		const codexFile = absolute.replace(/\.js$/, '.json');
		if (!fs.existsSync(codexFile)) {
			problems.push(`${file}: codex ${path.relative(root, codexFile)} is missing from dist`);
			continue;
		}
		const codex = JSON.parse(fs.readFileSync(codexFile, 'utf8'));
		const expected = `${pkg.name}.${description.name}`;
		check(
			codex.node === expected,
			`${path.relative(root, codexFile)}: "node" is ${codex.node}, expected ${expected}`,
		);
		for (const credential of description.credentials ?? []) {
			const known = pkg.n8n.credentials.some(
				(credFile) => loadClass(credFile).instance.name === credential.name,
			);
			check(known, `${file}: credential ${credential.name} is not listed in package.json`);
		}
	}

	if (problems.length)
		throw new Error(`dist/ would not load in n8n:\n - ${problems.join('\n - ')}`);
	console.log(
		`dist/ verified: ${pkg.n8n.nodes.length} nodes and ${pkg.n8n.credentials.length} credential load as n8n loads them.`,
	);
}

exports.prune = prune;
exports.verify = verify;
exports.build = series(prune, verify);
