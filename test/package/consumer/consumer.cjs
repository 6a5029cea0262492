// A CommonJS consumer: require() of every subpath of the installed package (Node >= 20.19 loads
// ES modules from require()).
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const pkg = JSON.parse(readFileSync(join(__dirname, 'node_modules/plume/package.json'), 'utf8'));

for (const subpath of Object.keys(pkg.exports)) {
  const specifier = subpath === '.' ? 'plume' : `plume/${subpath.slice(2)}`;
  const module = require(specifier);
  if (Object.keys(module).length === 0) throw new Error(`consumer.cjs: ${specifier} exports nothing`);
}
console.log('consumer.cjs: ok');
