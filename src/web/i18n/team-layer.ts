// The team layer's sentences in the client's language (./team-layer-en.ts, ./team-layer-de.ts), read in
// render as t() is: a switch of language re-renders.
import { language } from './index.js';
import { teamLayerDe } from './team-layer-de.js';
import { teamLayerEn, type TeamLayerCatalog } from './team-layer-en.js';

export const tl = (): TeamLayerCatalog => (language.value === 'de' ? teamLayerDe : teamLayerEn);
