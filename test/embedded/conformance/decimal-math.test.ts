/**
 * Square roots, exponentials, logarithms, powers and angles of Decimal128 values in aggregation, as
 * MongoDB 7.0 computes them (mongodb/mongo): src/mongo/db/pipeline/expression.cpp and
 * expression_trigonometric.h hand a decimal to src/mongo/platform/decimal128.cpp, whose functions are
 * the Intel decimal library's (`bid128_sqrt`, `bid128_exp`, `bid128_log`, `bid128_log10`, `bid128_pow`,
 * `bid128_sin` …), so the result is a decimal of 34 significant digits; `Decimal128::power` adds
 * `kLargestNegativeExponentZero` (0E-6176) to its result, which pads it to 34 digits; `$degreesToRadians`
 * multiplies by `kPi / 180`, with `kPi` the 51 digits "3.14159265358979323846264338327950288419716939937510".
 * Error codes and messages: expression.cpp (`$sqrt` 28714, `$ln` 28766, `$log10` 28761, `$log` 28758 and
 * 28759, `$pow` 28764) and expression_trigonometric.h (50989); jstests/aggregation/expressions/
 * unary_numeric.js: `$ln`/`$log10` of NumberDecimal("NaN") are double NaNs, `$sqrt` of it a decimal NaN.
 *
 * The inexact digits were computed independently with `bc -l` at scale=50 and rounded to 34 significant
 * digits, ties to even (e.g. `e(1)`, `l(2)`, `s(1)`, `a(1)*4`). The Intel library promises its
 * transcendental functions within 1 ulp, so MongoDB may differ from these in the last digit; the
 * logarithms follow the library's own steps through binary128 (bid128_log.c, bid128_log2.c,
 * bid128_log10.c) and are checked against MongoDB's results in jstests/aggregation/bugs/server18427.js;
 * the square
 * root is correctly rounded in both (IEEE 754), and exact roots take the exponent nearest half the
 * argument's (IEEE 754-2008 squareRoot's preferred exponent ⌊Q(x)/2⌋).
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, expressionFailure, typedResults } from '../helpers.js';

type Doc = Record<string, any>;

describe.each(drivers)('Decimal128 math operators ($name)', (driver) => {
  const t = connect(driver, 'decimal_math');
  const { Decimal128, Double } = driver.bson;
  const dec = (text: string) => Decimal128.fromString(text);

  const evaluate = (fields: Doc) => typedResults(t.db, fields);
  /** The code and message of the error evaluating `expression` on one document fails with. */
  async function error(expression: Doc): Promise<[unknown, unknown]> {
    const e = await expressionFailure(t.db, expression);
    return [e['code'], e['message']];
  }

  it('$sqrt of a decimal is correctly rounded to 34 digits, and exact roots keep few digits', async () => {
    expect(
      await evaluate({
        two: { $sqrt: dec('2') },
        four: { $sqrt: dec('4') },
        hundred: { $sqrt: dec('100') },
        quarter: { $sqrt: dec('0.25') },
        tiny: { $sqrt: dec('1E-10') },
        zeros: { $sqrt: dec('0.00') },
        negativeZero: { $sqrt: dec('-0') },
        largest: { $sqrt: dec('1E+6144') },
        nan: { $sqrt: dec('NaN') },
        infinity: { $sqrt: dec('Infinity') },
      }),
    ).toEqual({
      two: 'Decimal128 1.414213562373095048801688724209698',
      four: 'Decimal128 2',
      hundred: 'Decimal128 10',
      quarter: 'Decimal128 0.5',
      tiny: 'Decimal128 0.00001',
      zeros: 'Decimal128 0.0',
      negativeZero: 'Decimal128 -0',
      // Stored as 1000…0 (34 digits) × 10^6111: the root's preferred exponent is 3055.
      largest: 'Decimal128 1.00000000000000000E+3072',
      nan: 'Decimal128 NaN',
      infinity: 'Decimal128 Infinity',
    });
  });

  it('$exp, $ln, $log10 and $log of decimals have 34 digits, exact where the value is', async () => {
    expect(
      await evaluate({
        e: { $exp: dec('1') },
        inverseE: { $exp: dec('-1') },
        expZero: { $exp: dec('0') },
        expLarge: { $exp: dec('10000') },
        expOverflow: { $exp: dec('15001') },
        expMinusInfinity: { $exp: dec('-Infinity') },
        ln2: { $ln: dec('2') },
        ln10: { $ln: dec('10') },
        lnOne: { $ln: dec('1') },
        lnNaN: { $ln: dec('NaN') },
        log10Thousand: { $log10: dec('1000') },
        log10Milli: { $log10: dec('0.001') },
        log10Two: { $log10: dec('2') },
        log8Base2: { $log: [dec('8'), 2] },
        log100Base3: { $log: [dec('100'), dec('3')] },
      }),
    ).toEqual({
      e: 'Decimal128 2.718281828459045235360287471352662',
      inverseE: 'Decimal128 0.3678794411714423215955237701614609',
      expZero: 'Decimal128 1',
      expLarge: 'Decimal128 8.806818225662921587261496007644561E+4342',
      expOverflow: 'Decimal128 Infinity',
      expMinusInfinity: 'Decimal128 0',
      ln2: 'Decimal128 0.6931471805599453094172321214581766',
      ln10: 'Decimal128 2.302585092994045684017991454684364',
      lnOne: 'Decimal128 0',
      lnNaN: 'Double NaN',
      log10Thousand: 'Decimal128 3',
      log10Milli: 'Decimal128 -3',
      log10Two: 'Decimal128 0.3010299956639811952137388947244930',
      log8Base2: 'Decimal128 3',
      // ln 100 ÷ ln 3 with Intel's binary128 logarithms (the true quotient ends …803)
      log100Base3: 'Decimal128 4.191806548578769208593135044042801',
    });
  });

  it('$exp of a decimal takes bid128_exp.c’s binary128 steps, so its last digit is the library’s', async () => {
    // bid128_exp.c: x = n + m (binary128 high part and rounded rest), e^n + e^n·m in binary128, then to
    // decimal128; beyond ±11000 times the library's decimal e^±11000, beyond ±15000 ∞ or 0. Expected
    // digits computed independently with Python's decimal and fractions modules in those steps; the
    // correctly rounded results end …091, …456, …278 (true values 7994350842633.57472242619720001609114…,
    // 87.37562537534700425956085039804455912…, 2.04980510126086510752601669470027755…E-21).
    expect(
      await evaluate({
        a: { $exp: dec('29.7097562635') },
        b: { $exp: dec('4.4702163579') },
        c: { $exp: dec('-47.6365422368') },
        large: { $exp: dec('12000') },
        small: { $exp: dec('-12000') },
        over: { $exp: dec('15000') },
        under: { $exp: dec('-15000.5') },
      }),
    ).toEqual({
      a: 'Decimal128 7994350842633.574722426197200016092',
      b: 'Decimal128 87.37562537534700425956085039804455',
      c: 'Decimal128 2.049805101260865107526016694700277E-21',
      large: 'Decimal128 3.418084847210553614682469551547374E+5211',
      small: 'Decimal128 2.925614912152004050318842167924113E-5212',
      over: 'Decimal128 Infinity',
      under: 'Decimal128 0E-6176',
    });
  });

  it('$ln and $log10 of decimals give the digits MongoDB gives (Intel binary128 steps)', async () => {
    // jstests/aggregation/bugs/server18427.js (mongodb/mongo): log10TestCases, lnTestCases, decimalE.
    expect(
      await evaluate({
        log10One: { $log10: dec('1') },
        log10TwoAndHalf: { $log10: dec('2.5') },
        log10Ten: { $log10: dec('10') },
        log10Eleven: { $log10: dec('11') },
        log10Hundred: { $log10: dec('100') },
        log10HundredOne: { $log10: dec('101') },
        lnOne: { $ln: dec('1') },
        lnTwoAndHalf: { $ln: dec('2.5') },
        lnSeven: { $ln: dec('7') },
        lnTen: { $ln: dec('10') },
        lnE: { $ln: dec('2.718281828459045235360287471352662') },
        lnInverseE: { $ln: dec('0.3678794411714423215955237701614609') },
      }),
    ).toEqual({
      log10One: 'Decimal128 0',
      log10TwoAndHalf: 'Decimal128 0.3979400086720376095725222105510140',
      log10Ten: 'Decimal128 1',
      log10Eleven: 'Decimal128 1.041392685158225040750199971243024',
      log10Hundred: 'Decimal128 2',
      log10HundredOne: 'Decimal128 2.004321373782642574275188178222938',
      lnOne: 'Decimal128 0',
      lnTwoAndHalf: 'Decimal128 0.9162907318741550651835272117680110',
      lnSeven: 'Decimal128 1.945910149055313305105352743443180',
      lnTen: 'Decimal128 2.302585092994045684017991454684364',
      lnE: 'Decimal128 0.9999999999999999999999999999999998',
      lnInverseE: 'Decimal128 -0.9999999999999999999999999999999998',
    });
  });

  it('$ln and $log10 of decimals beyond binary128’s range (scaled by 10^∓4464 first, bid128_log.c) keep 32 digits or more', async () => {
    const result = await evaluate({
      lnHuge: { $ln: dec('1E+6000') },
      lnTiny: { $ln: dec('1E-6000') },
      log10Huge: { $log10: dec('1E+6000') },
      log10Tiny: { $log10: dec('3E-6170') },
    });
    // 6000·ln 10 = 13815.51055796427410410794872810618524…; the library adds the binary128 4464·ln 10.
    expect(result['lnHuge']).toMatch(/^Decimal128 13815\.510557964274104107948728106\d{2}$/);
    expect(result['lnTiny']).toMatch(/^Decimal128 -13815\.510557964274104107948728106\d{2}$/);
    expect(result['log10Huge']).toMatch(/^Decimal128 6000(\.0{30})?$/);
    // log₁₀(3·10^−6170) = −6170 + 0.47712125471966243729502790325512…
    expect(result['log10Tiny']).toMatch(/^Decimal128 -6169\.5228787452803375627049720967\d{2}$/);
  });

  it('$log of a decimal with a base other than 2 or 10 divides ln x by ln b, each rounded to 34 digits', async () => {
    // jstests/aggregation/bugs/server18427.js (mongodb/mongo), logTestCases: the decimal results for
    // bases 8, 9 and 12.77, with decimal, double, int and long inputs and bases; Decimal128::logarithm
    // (src/mongo/platform/decimal128.cpp) uses bid128_log2 / bid128_log10 for a base equal to 2 / 10.
    const cases: [number, number, string][] = [
      [1, 8, '0E+33'],
      [2.5, 8, '0.4406426982957874492901064764964633'],
      [7, 8, '0.9357849740192013691473231057439436'],
      [8, 8, '1'],
      [64, 8, '2.000000000000000000000000000000000'],
      [65, 8, '2.007455937676151502755710694582028'],
      [1, 9, '0E+33'],
      [2.5, 9, '0.4170218835732348650487566466679398'],
      [4, 9, '0.6309297535714574370995271143427609'],
      [9, 9, '1'],
      [10, 9, '1.047951637144692302148283761010701'],
      [81, 9, '2'],
      [82, 9, '2.005584359795706389324272570756155'],
      [1, 12.77, '0E+33'],
      [2.5, 12.77, '0.3597390013391846393309152124110717'],
      [12.77, 12.77, '1'],
      [13, 12.77, '1.007008243389635671677137269228113'],
      [163.0729, 12.77, '2.000000000000000000000000000000000'],
      [170, 12.77, '2.016332738676605709114981994718173'],
    ];
    const fields: Doc = {};
    const expected: Doc = {};
    cases.forEach(([input, base, result], i) => {
      const inputs: unknown[] = [dec(String(input)), input];
      const bases: unknown[] = [dec(String(base)), base];
      if (Number.isInteger(base)) bases.push(new driver.bson.Int32(base), driver.bson.Long.fromNumber(base));
      inputs.forEach((x, j) =>
        bases.forEach((b, k) => {
          if (j === 1 && k > 0) return; // both non-decimal: a double, not this test's subject
          fields[`c${i}_${j}_${k}`] = { $log: [x, b] };
          expected[`c${i}_${j}_${k}`] = `Decimal128 ${result}`;
        }),
      );
    });
    expect(await evaluate(fields)).toEqual(expected);
    expect(
      await evaluate({ base2: { $log: [dec('1024'), dec('2.0')] }, base10: { $log: [dec('0.001'), 10] } }),
    ).toEqual({
      base2: 'Decimal128 10',
      base10: 'Decimal128 -3',
    });
  });

  it('$pow with a decimal is exact for integer exponents and padded to 34 digits', async () => {
    expect(
      await evaluate({
        cube: { $pow: [dec('2'), 3] },
        inverse: { $pow: [2, dec('-1')] },
        negativeCube: { $pow: [dec('-2'), 3] },
        root: { $pow: [dec('2'), dec('0.5')] },
        compound: { $pow: [dec('1.0001'), 10000] },
        zero: { $pow: [dec('0'), 2] },
        anyToZero: { $pow: [dec('NaN'), 0] },
        negativeRoot: { $pow: [dec('-8'), dec('0.5')] },
      }),
    ).toEqual({
      cube: 'Decimal128 8.000000000000000000000000000000000',
      inverse: 'Decimal128 0.5000000000000000000000000000000000',
      negativeCube: 'Decimal128 -8.000000000000000000000000000000000',
      root: 'Decimal128 1.414213562373095048801688724209698',
      compound: 'Decimal128 2.718145926825224864037664674913147',
      zero: 'Decimal128 0E-6176',
      anyToZero: 'Decimal128 1.000000000000000000000000000000000',
      negativeRoot: 'Decimal128 NaN',
    });
  });

  it('the trigonometric and hyperbolic operators of decimals have 34 digits', async () => {
    expect(
      await evaluate({
        sin: { $sin: dec('1') },
        cos: { $cos: dec('1') },
        tan: { $tan: dec('1') },
        sinZero: { $sin: dec('-0') },
        cosZero: { $cos: dec('0') },
        asin: { $asin: dec('0.5') },
        acos: { $acos: dec('-1') },
        atan: { $atan: dec('1') },
        atan2: { $atan2: [dec('1'), -1] },
        sinh: { $sinh: dec('1') },
        cosh: { $cosh: dec('2') },
        tanh: { $tanh: dec('0.5') },
        asinh: { $asinh: dec('1') },
        acosh: { $acosh: dec('2') },
        atanh: { $atanh: dec('0.5') },
        atanhOne: { $atanh: dec('1') },
        sinNaN: { $sin: dec('NaN') },
        hugeSine: { $sin: dec('1E+100') },
      }),
    ).toEqual({
      sin: 'Decimal128 0.8414709848078965066525023216302990',
      cos: 'Decimal128 0.5403023058681397174009366074429766',
      tan: 'Decimal128 1.557407724654902230506974807458360',
      sinZero: 'Decimal128 -0',
      cosZero: 'Decimal128 1',
      asin: 'Decimal128 0.5235987755982988730771072305465838',
      acos: 'Decimal128 3.141592653589793238462643383279503',
      atan: 'Decimal128 0.7853981633974483096156608458198757',
      atan2: 'Decimal128 2.356194490192344928846982537459627',
      sinh: 'Decimal128 1.175201193643801456882381850595601',
      cosh: 'Decimal128 3.762195691083631459562213477773746',
      tanh: 'Decimal128 0.4621171572600097585023184836436725',
      asinh: 'Decimal128 0.8813735870195430252326093249797923',
      acosh: 'Decimal128 1.316957896924816708625046347307968',
      atanh: 'Decimal128 0.5493061443340548456976226184612629',
      atanhOne: 'Decimal128 Infinity',
      sinNaN: 'Decimal128 NaN',
      // bc: s(10^100) at scale=120.
      hugeSine: 'Decimal128 -0.3723761236612766882620866955531643',
    });
  });

  it('$degreesToRadians and $radiansToDegrees multiply by MongoDB’s 34-digit constants', async () => {
    expect(
      await evaluate({
        half: { $degreesToRadians: dec('180') },
        one: { $degreesToRadians: dec('1') },
        zero: { $degreesToRadians: dec('0') },
        radian: { $radiansToDegrees: dec('1') },
        double: { $degreesToRadians: 180 },
      }),
    ).toEqual({
      half: 'Decimal128 3.141592653589793238462643383279503',
      one: 'Decimal128 0.01745329251994329576923690768488613',
      // A product's exponent is the sum of its factors' (IEEE 754): 0 × 1.7…E-2 is 0E-35.
      zero: 'Decimal128 0E-35',
      radian: 'Decimal128 57.29577951308232087679815481410517',
      double: 'Double 3.141592653589793',
    });
  });

  it('arguments outside a function’s domain fail with MongoDB’s codes, decimal or not', async () => {
    expect(await error({ $sqrt: dec('-1') })).toEqual([
      28714,
      "$sqrt's argument must be greater than or equal to 0",
    ]);
    expect(await error({ $sqrt: -4 })).toEqual([
      28714,
      "$sqrt's argument must be greater than or equal to 0",
    ]);
    expect(await error({ $ln: dec('0') })).toEqual([
      28766,
      "$ln's argument must be a positive number, but is 0",
    ]);
    expect(await error({ $log10: dec('-1') })).toEqual([
      28761,
      "$log10's argument must be a positive number, but is -1",
    ]);
    expect((await error({ $log: [dec('0'), 10] }))[0]).toBe(28758);
    expect((await error({ $log: [dec('5'), dec('1.0')] }))[0]).toBe(28759);
    expect(await error({ $pow: [dec('0'), -1] })).toEqual([
      28764,
      '$pow cannot take a base of 0 and a negative exponent',
    ]);
    expect(await error({ $sin: dec('Infinity') })).toEqual([
      50989,
      'cannot apply $sin to Infinity, value must be in (-inf,inf)',
    ]);
    expect(await error({ $acos: dec('2') })).toEqual([
      50989,
      'cannot apply $acos to 2, value must be in [-1,1]',
    ]);
    expect(await error({ $acosh: 0.5 })).toEqual([
      50989,
      'cannot apply $acosh to 0.5, value must be in [1,inf]',
    ]);
  });

  it('$stdDevPop and $stdDevSamp count every decimal and give a double (accumulator_std_dev.cpp)', async () => {
    const coll = t.db.collection<any>('deviations');
    await coll.deleteMany({});
    await coll.insertMany([
      { g: 'a', v: dec('0.1') },
      { g: 'a', v: dec('0.3') },
      { g: 'a', v: new Double(0.2) },
      { g: 'b', v: dec('1') },
      { g: 'b', v: 3 },
    ]);
    const rows = await coll
      .aggregate(
        [
          { $group: { _id: '$g', pop: { $stdDevPop: '$v' }, samp: { $stdDevSamp: '$v' } } },
          { $sort: { _id: 1 } },
        ],
        { promoteValues: false },
      )
      .toArray();
    // AccumulatorStdDev::processInternal reads each number with getDouble(); the result is a double.
    const [a, b] = rows.map((row) => ({
      pop: (row['pop'] as Doc)['_bsontype'] as string,
      popValue: Number(row['pop']),
      samp: Number(row['samp']),
    }));
    expect(a!.pop).toBe('Double');
    expect(a!.popValue).toBeCloseTo(Math.sqrt(2 / 300), 12);
    expect(a!.samp).toBeCloseTo(0.1, 12);
    expect(b).toEqual({ pop: 'Double', popValue: 1, samp: Math.SQRT2 });
  });
});
