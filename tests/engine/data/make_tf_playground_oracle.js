// Writes tf_playground_oracle.json: what the TF Playground's own code makes, for test_tf_playground_*.py.
//
// It runs tensorflow/playground's src/dataset.ts and src/nn.ts (commit 02469bd), transpiled as they are,
// with seedrandom 2.4.3 and d3 3.5.17 (its versions), the way its page does on loading a URL:
// Math.seedrandom(seed); data = generator(n, noise / 100); shuffle(data); split at
// floor(n * percTrainData / 100); buildNetwork(...); then oneStep (playground.ts) `epochs` times.
//
//   npm install seedrandom@2.4.3 d3@3.5.17 typescript      (in a scratch folder, say /tmp/oracle)
//   mkdir /tmp/oracle/src && cp <playground checkout>/src/{dataset,nn}.ts /tmp/oracle/src/
//   cd /tmp/oracle && node <this file> > <this folder>/tf_playground_oracle.json
const fs = require('fs');
// The packages are the scratch folder's (the current directory's), not this file's.
const local = name => require(require.resolve(name, {paths: [process.cwd()]}));
const ts = local('typescript');
for (const f of ['dataset', 'nn']) {
  const out = ts.transpileModule(fs.readFileSync(`src/${f}.ts`, 'utf8'),
    {compilerOptions: {module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2015}});
  fs.writeFileSync(`src/${f}.js`, out.outputText);
}
local('seedrandom');
const ds = require(process.cwd() + '/src/dataset.js');
const nn = require(process.cwd() + '/src/nn.js');

const gens = {circle: ds.classifyCircleData, xor: ds.classifyXORData, gauss: ds.classifyTwoGaussData,
  spiral: ds.classifySpiralData, 'reg-plane': ds.regressPlane, 'reg-gauss': ds.regressGaussian};
// playground.ts INPUTS, in its order
const INPUTS = {x: (x, y) => x, y: (x, y) => y, xSquared: (x, y) => x * x, ySquared: (x, y) => y * y,
  xTimesY: (x, y) => x * y, sinX: (x, y) => Math.sin(x), sinY: (x, y) => Math.sin(y)};
const acts = {relu: nn.Activations.RELU, tanh: nn.Activations.TANH, sigmoid: nn.Activations.SIGMOID,
  linear: nn.Activations.LINEAR};
const regs = {none: null, L1: nn.RegularizationFunction.L1, L2: nn.RegularizationFunction.L2};

// An order-sensitive checksum of the points: sum of (i + 1) * (x + 2 y + 3 label).
const checksum = pts => pts.reduce((s, p, i) => s + (i + 1) * (p.x + 2 * p.y + 3 * p.label), 0);

function run(cfg) {
  Math.seedrandom(cfg.seed);
  const regression = cfg.dataset.startsWith('reg-');
  const data = gens[cfg.dataset](cfg.n || (regression ? 1200 : 500), cfg.noise / 100);
  ds.shuffle(data);
  const split = Math.floor(data.length * cfg.perc / 100);
  const train = data.slice(0, split), test = data.slice(split);
  const inputIds = Object.keys(INPUTS).filter(k => cfg.features.includes(k));
  const input = p => inputIds.map(k => INPUTS[k](p.x, p.y));
  const net = nn.buildNetwork([inputIds.length].concat(cfg.hidden).concat([1]), acts[cfg.activation],
    regression ? nn.Activations.LINEAR : nn.Activations.TANH, regs[cfg.regularization], inputIds, false);
  // One entry per layer: W[i][j] is the link from node j of the layer before to node i.
  const params = () => net.slice(1).map(layer => ({W: layer.map(node => node.inputLinks.map(l => l.weight)),
    b: layer.map(node => node.bias), dead: layer.map(node => node.inputLinks.map(l => l.isDead ? 1 : 0))}));
  const getLoss = pts => pts.reduce((s, p) => s + nn.Errors.SQUARE.error(nn.forwardProp(net, input(p)), p.label),
    0) / pts.length;
  const out = {config: cfg, n_train: train.length, n_test: test.length,
    train_head: train.slice(0, 5).map(p => [p.x, p.y, p.label]),
    test_head: test.slice(0, 5).map(p => [p.x, p.y, p.label]),
    train_checksum: checksum(train), test_checksum: checksum(test),
    initial: params(), losses: [[getLoss(train), getLoss(test)]]};
  for (let e = 0; e < cfg.epochs; e++) {
    train.forEach((point, i) => {  // playground.ts oneStep
      nn.forwardProp(net, input(point));
      nn.backProp(net, point.label, nn.Errors.SQUARE);
      if ((i + 1) % cfg.batch === 0) {
        nn.updateWeights(net, cfg.lr, cfg.rate);
      }
    });
    out.losses.push([getLoss(train), getLoss(test)]);
  }
  out.final = params();
  out.next_draw = Math.random();  // where the stream stands after data and weights (none drawn in training)
  return out;
}

const configs = [
  {seed: '0.59857', dataset: 'xor', noise: 35, perc: 50, features: ['x', 'y'], hidden: [3],
    activation: 'tanh', regularization: 'none', rate: 0, lr: 0.03, batch: 10, epochs: 3},
  {seed: '0.11111', dataset: 'spiral', noise: 50, perc: 50, features: Object.keys(INPUTS), hidden: [8, 6, 3],
    activation: 'relu', regularization: 'L1', rate: 0.01, lr: 0.1, batch: 7, epochs: 8},
  {seed: '0.22222', dataset: 'circle', noise: 10, perc: 30, features: ['x', 'y', 'xSquared', 'ySquared'],
    hidden: [4, 2], activation: 'sigmoid', regularization: 'L2', rate: 0.03, lr: 0.3, batch: 13, epochs: 5},
  {seed: '0.33333', dataset: 'gauss', noise: 20, perc: 70, features: ['x', 'y', 'xTimesY'], hidden: [2],
    activation: 'linear', regularization: 'L1', rate: 0.3, lr: 0.03, batch: 1, epochs: 2},
  {seed: '0.44444', dataset: 'reg-gauss', noise: 15, perc: 50, features: ['x', 'y', 'sinX', 'sinY'],
    hidden: [6, 4], activation: 'tanh', regularization: 'L2', rate: 0.001, lr: 0.01, batch: 30, epochs: 3},
  {seed: '0.55555', dataset: 'reg-plane', noise: 5, perc: 80, features: ['x', 'y'], hidden: [],
    activation: 'linear', regularization: 'L1', rate: 0.1, lr: 0.003, batch: 17, epochs: 4},
  {seed: '0.66666', dataset: 'spiral', noise: 80, perc: 10, features: ['x', 'y'], hidden: [3, 2],
    activation: 'relu', regularization: 'L2', rate: 0.01, lr: 0.1, batch: 10, epochs: 2, n: 501},
];
const hello = local('seedrandom')('hello.');
process.stdout.write(JSON.stringify({
  source: 'tensorflow/playground 02469bd src/dataset.ts + src/nn.ts, seedrandom 2.4.3, d3 3.5.17',
  seedrandom_hello: [hello(), hello(), hello()],
  runs: configs.map(run)}, null, 1) + '\n');
