// The package's build runs this after its JavaScript (scripts/build-package.mjs): it makes the
// archive of a new embedded database's template that the package ships, in embedded-template/
// (buildPackagedTemplate, src/index.ts), or finds the one of these migrations and content there.
import { relative } from 'node:path';

const started = performance.now();
const { buildPackagedTemplate } = await import('../dist/index.js');
const { archive, built } = await buildPackagedTemplate();
const name = relative(process.cwd(), archive);
console.log(
  built
    ? `embedded database template: ${name} (${((performance.now() - started) / 1000).toFixed(1)} s)`
    : `embedded database template: ${name} is current`,
);
// Nothing of the service is left to run; an import may have left a timer.
process.exit(0);
