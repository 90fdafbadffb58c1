/** Tests run the TypeScript sources directly; `npm run build` is checked separately. */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json' }],
	},
	// Sources run by Node's type stripping import siblings as './x.ts'; compiled for jest they become './x.js'.
	moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
	setupFiles: ['<rootDir>/test/setup-env.ts'],
	testTimeout: 30000,
};
