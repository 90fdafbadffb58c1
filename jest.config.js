/** Tests run the TypeScript sources directly; `npm run build` is checked separately. */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	// The n8n manifests of the real-n8n tests are installs' package.json files, not test modules.
	modulePathIgnorePatterns: ['<rootDir>/test/n8n-app/versions/'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json' }],
	},
	// Sources run by Node's type stripping import siblings as './x.ts'; compiled for jest they become './x.js'.
	moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
	setupFiles: ['<rootDir>/test/setup-env.ts'],
	// Fails a file that starts with Node's http module still patched by an earlier file's HTTP mock.
	setupFilesAfterEnv: ['<rootDir>/test/setup-shared-http.ts'],
	testTimeout: 30000,
};
