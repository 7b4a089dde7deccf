import { describe, expect, it } from 'vitest'
import { AppError } from '../shared/errors.js'
import { type ExperimentInput, parseExperimentInput, parseExperimentUpdate } from './experiment-input.js'

function rejection(run: () => unknown) {
  try {
    run()
  } catch (error) {
    if (!(error instanceof AppError)) throw error
    return { status: error.status, error: error.message, details: error.details }
  }
  throw new Error('accepted')
}

const valid = {
  name: 'Checkout button',
  key: 'checkout-button',
  variants: [{ name: 'A', control: true }, { name: 'B' }],
  goalId: 3,
}

describe('parseExperimentInput', () => {
  it('accepts a minimal body: trims, defaults control to false, status to draft, description to null', () => {
    expect(
      parseExperimentInput({
        ...valid,
        name: ' Checkout button ',
        variants: [{ name: ' A ', control: true }, { name: 'B' }],
      }),
    ).toEqual({
      name: 'Checkout button',
      key: 'checkout-button',
      description: null,
      variants: [
        { name: 'A', control: true },
        { name: 'B', control: false },
      ],
      goalId: 3,
      status: 'draft',
    })
    expect(
      parseExperimentInput({ ...valid, description: ' Green or blue ', status: 'running' }),
    ).toMatchObject({
      description: 'Green or blue',
      status: 'running',
    })
    expect(parseExperimentInput({ ...valid, description: '' }).description).toBeNull()
    expect(parseExperimentInput({ ...valid, key: '0_a-b' }).key).toBe('0_a-b')
    expect(parseExperimentInput({ ...valid, key: 'k'.repeat(64) }).key).toHaveLength(64)
    const ten = Array.from({ length: 10 }, (_, i) => ({ name: `v${i}`, control: i === 9 }))
    expect(parseExperimentInput({ ...valid, variants: ten }).variants).toHaveLength(10)
  })

  it.each([
    [{ ...valid, name: undefined }, 'name', 'name is required'],
    [{ ...valid, name: '  ' }, 'name', 'name is required'],
    [{ ...valid, name: 'x'.repeat(101) }, 'name', 'at most 100'],
    [{ ...valid, key: undefined }, 'key', 'key is required'],
    [{ ...valid, key: 'Checkout' }, 'key', 'lower-case letters'],
    [{ ...valid, key: '-checkout' }, 'key', 'starting with a letter or digit'],
    [{ ...valid, key: 'a b' }, 'key', 'lower-case letters'],
    [{ ...valid, key: 'k'.repeat(65) }, 'key', '1-64'],
    [{ ...valid, key: 7 }, 'key', 'key must be a string'],
    [{ ...valid, description: 'd'.repeat(1001) }, 'description', 'at most 1000'],
    [{ ...valid, description: 5 }, 'description', 'a string or null'],
    [{ ...valid, variants: undefined }, 'variants', 'variants is required'],
    [{ ...valid, variants: 'A,B' }, 'variants', 'must be an array'],
    [{ ...valid, variants: [{ name: 'A', control: true }] }, 'variants', 'at least 2'],
    [
      { ...valid, variants: Array.from({ length: 11 }, (_, i) => ({ name: `v${i}`, control: i === 0 })) },
      'variants',
      'at most 10',
    ],
    [
      { ...valid, variants: [{ name: 'A' }, { name: 'B' }] },
      'variants',
      'exactly one variant must have control: true (found 0)',
    ],
    [
      {
        ...valid,
        variants: [
          { name: 'A', control: true },
          { name: 'B', control: true },
        ],
      },
      'variants',
      'exactly one variant must have control: true (found 2)',
    ],
    [
      { ...valid, variants: [{ name: 'A', control: true }, { name: 'A' }] },
      'variants.1.name',
      'must be unique',
    ],
    [
      { ...valid, variants: [{ name: 'A', control: true }, { name: '' }] },
      'variants.1.name',
      'name is required',
    ],
    [
      { ...valid, variants: [{ name: 'A', control: true }, { name: 'v'.repeat(65) }] },
      'variants.1.name',
      'at most 64',
    ],
    [
      { ...valid, variants: [{ name: 'A', control: 'yes' }, { name: 'B' }] },
      'variants.0.control',
      'true or false',
    ],
    [{ ...valid, variants: [{ name: 'A', control: true }, 'B'] }, 'variants.1', 'must be an object'],
    [
      { ...valid, variants: [{ name: 'A', control: true, weight: 1 }, { name: 'B' }] },
      'variants.0',
      'only name and control: weight',
    ],
    [{ ...valid, goalId: undefined }, 'goalId', 'goalId is required'],
    [{ ...valid, goalId: '3' }, 'goalId', 'the id of a goal'],
    [{ ...valid, goalId: 1.5 }, 'goalId', 'the id of a goal'],
    [{ ...valid, goalId: 0 }, 'goalId', 'the id of a goal'],
    [{ ...valid, status: 'paused' }, 'status', 'one of draft, running, completed'],
  ])('rejects %j: %s', (body, field, text) => {
    const { status, error, details } = rejection(() => parseExperimentInput(body))
    expect(status).toBe(400)
    expect(error).toContain(`Invalid experiment: ${field}: `)
    expect(error).toContain(text)
    expect((details as { fieldErrors: Record<string, string[]> }).fieldErrors[field]?.join(' ')).toContain(
      text,
    )
  })

  it('refuses unknown fields and bodies that are not objects', () => {
    expect(rejection(() => parseExperimentInput({ ...valid, experimentId: 1 })).error).toBe(
      'Invalid experiment: unknown fields: experimentId',
    )
    expect(rejection(() => parseExperimentInput([valid])).error).toBe(
      'Invalid experiment: the body must be a JSON object',
    )
    expect(rejection(() => parseExperimentInput(undefined)).error).toContain('name is required')
  })
})

describe('parseExperimentUpdate', () => {
  const current: ExperimentInput = {
    name: 'Checkout button',
    key: 'checkout-button',
    description: 'Green or blue',
    variants: [
      { name: 'A', control: true },
      { name: 'B', control: false },
    ],
    goalId: 3,
    status: 'draft',
  }

  it('keeps what the body leaves out, replaces variants whole, and says what changed', () => {
    expect(parseExperimentUpdate(current, {})).toEqual({ input: current, changed: [] })
    expect(parseExperimentUpdate(current, { status: 'running' })).toEqual({
      input: { ...current, status: 'running' },
      changed: ['status'],
    })
    expect(
      parseExperimentUpdate(current, {
        variants: [{ name: 'Blue', control: true }, { name: 'Green' }],
        goalId: 4,
      }),
    ).toEqual({
      input: {
        ...current,
        variants: [
          { name: 'Blue', control: true },
          { name: 'Green', control: false },
        ],
        goalId: 4,
      },
      changed: ['variants', 'goalId'],
    })
    expect(parseExperimentUpdate(current, { description: null }).input.description).toBeNull()
  })

  it('takes a whole stored Experiment as the current state', () => {
    const stored = {
      ...current,
      experimentId: 1,
      siteId: 2,
      createdAt: '2026-03-01T00:00:00.000Z',
      updatedAt: '2026-03-01T00:00:00.000Z',
    }
    expect(parseExperimentUpdate(stored, { status: 'running' }).input).toEqual({
      ...current,
      status: 'running',
    })
  })

  it('keeps a goal that was deleted (null) until a new one is sent, and never sets null', () => {
    const orphan = { ...current, goalId: null }
    expect(parseExperimentUpdate(orphan, { name: 'Renamed' }).input).toEqual({ ...orphan, name: 'Renamed' })
    expect(rejection(() => parseExperimentUpdate(current, { goalId: null })).error).toBe(
      'Invalid experiment: goalId: goalId must be the id of a goal of this site',
    )
  })

  it('validates each field sent and the merged experiment', () => {
    expect(rejection(() => parseExperimentUpdate(current, { name: '' })).error).toBe(
      'Invalid experiment: name: name is required',
    )
    expect(
      rejection(() => parseExperimentUpdate(current, { variants: [{ name: 'A' }, { name: 'B' }] })).error,
    ).toBe('Invalid experiment: variants: exactly one variant must have control: true (found 0)')
    expect(rejection(() => parseExperimentUpdate(current, { createdAt: 'x' })).error).toBe(
      'Invalid experiment: unknown fields: createdAt',
    )
  })
})
