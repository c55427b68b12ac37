/*
 * Stripe emulator: a stand-in for Stripe's hosted stripe.js (v3), served by
 * the emulator at /v3/stripe.js. It defines `window.Stripe` with the surface
 * that @stripe/stripe-js and @stripe/react-stripe-js use, renders a plain card
 * form (no iframes) and talks only to the emulator that served it.
 * No eval, no injected <style>: it works under a nonce-based CSP.
 */
;(() => {
  'use strict'

  // The emulator replaces this with its own origin as the browser reached it.
  const injectedApiBase = '__STRIPE_EMULATOR_API_BASE__'
  const API_BASE = injectedApiBase.startsWith('__') ? new URL(document.currentScript.src).origin : injectedApiBase

  class IntegrationError extends Error {
    constructor(message) {
      super(message)
      this.name = 'IntegrationError'
    }
  }

  // --- HTTP -------------------------------------------------------------------

  /** Stripe's bracketed form encoding: {a: {b: 1}, c: ['x']} → a[b]=1&c[0]=x */
  function encodeForm(data) {
    const pairs = []
    const add = (key, value) => {
      if (value === undefined || value === null) return
      if (typeof value === 'object') {
        for (const [child, item] of Object.entries(value)) add(`${key}[${child}]`, item)
        return
      }
      pairs.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`)
    }
    for (const [key, value] of Object.entries(data)) add(key, value)
    return pairs.join('&')
  }

  /** Resolves to {data} or {error}; never rejects, like stripe.js results. */
  async function request(method, path, params) {
    const body = encodeForm(params)
    const init = method === 'GET' ? { method } : { method, headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body }
    let response
    try {
      response = await fetch(`${API_BASE}${path}${method === 'GET' ? `?${body}` : ''}`, init)
    } catch {
      return {
        error: { type: 'api_connection_error', message: `Could not reach the Stripe emulator at ${API_BASE}.` },
      }
    }
    const json = await response.json().catch(() => null)
    if (!json) return { error: { type: 'api_error', message: 'The Stripe emulator sent an invalid response.' } }
    return response.ok ? { data: json } : { error: json.error }
  }

  function intentIdFromSecret(clientSecret) {
    const match = /^(pi_[A-Za-z0-9]+)_secret_[A-Za-z0-9]+$/.exec(String(clientSecret))
    if (!match) {
      throw new IntegrationError(
        `Invalid value for clientSecret: expected a PaymentIntent client secret (pi_…_secret_…), got ${clientSecret}.`,
      )
    }
    return match[1]
  }

  // --- Card validation ----------------------------------------------------------

  const onlyDigits = (value) => String(value).replace(/\D/g, '')

  function luhnValid(digits) {
    let sum = 0
    for (let i = 0; i < digits.length; i++) {
      let digit = Number(digits[digits.length - 1 - i])
      if (i % 2 === 1) {
        digit *= 2
        if (digit > 9) digit -= 9
      }
      sum += digit
    }
    return sum % 10 === 0
  }

  function brandOf(digits) {
    if (/^3[47]/.test(digits)) return 'amex'
    if (/^(5[1-5]|2[2-7])/.test(digits)) return 'mastercard'
    if (digits.startsWith('4')) return 'visa'
    return 'unknown'
  }

  const expectedLength = (digits) => (brandOf(digits) === 'amex' ? 15 : 16)

  /** "12 / 34", "12/34", "1234" → {month: 12, year: 2034} */
  function parseExpiry(value) {
    const digits = onlyDigits(value)
    if (digits.length !== 4 && digits.length !== 6) return null
    const month = Number(digits.slice(0, 2))
    const year = Number(digits.slice(2))
    return { month, year: year < 100 ? 2000 + year : year }
  }

  function defaultExpiry() {
    const year = (new Date().getFullYear() + 5) % 100
    return `12 / ${String(year).padStart(2, '0')}`
  }

  const validationError = (code, message) => ({ type: 'validation_error', code, message })

  function cardError(values, { whileTyping }) {
    const number = onlyDigits(values.number)
    if (number.length >= expectedLength(number) && !luhnValid(number)) {
      return validationError('invalid_number', 'Your card number is invalid.')
    }
    if (whileTyping) return null
    if (number.length < expectedLength(number)) {
      return validationError('incomplete_number', 'Your card number is incomplete.')
    }
    const expiry = parseExpiry(values.expiry)
    if (!expiry) return validationError('incomplete_expiry', "Your card's expiration date is incomplete.")
    if (expiry.month < 1 || expiry.month > 12) {
      return validationError('invalid_expiry_month', "Your card's expiration month is invalid.")
    }
    const now = new Date()
    if (expiry.year < now.getFullYear() || (expiry.year === now.getFullYear() && expiry.month < now.getMonth() + 1)) {
      return validationError('invalid_expiry_year_past', "Your card's expiration year is in the past.")
    }
    if (!/^\d{3,4}$/.test(values.cvc.trim())) {
      return validationError('incomplete_cvc', "Your card's security code is incomplete.")
    }
    return null
  }

  // --- Events -------------------------------------------------------------------

  class Emitter {
    constructor() {
      this.handlers = new Map()
    }

    on(event, handler) {
      if (typeof handler !== 'function') throw new IntegrationError(`A handler for "${event}" must be a function.`)
      if (!this.handlers.has(event)) this.handlers.set(event, [])
      this.handlers.get(event).push(handler)
      return this
    }

    once(event, handler) {
      const wrapper = (payload) => {
        this.off(event, wrapper)
        handler(payload)
      }
      wrapper.original = handler
      return this.on(event, wrapper)
    }

    off(event, handler) {
      if (!handler) {
        this.handlers.delete(event)
        return this
      }
      const remaining = (this.handlers.get(event) || []).filter((h) => h !== handler && h.original !== handler)
      this.handlers.set(event, remaining)
      return this
    }

    emit(event, payload) {
      for (const handler of [...(this.handlers.get(event) || [])]) {
        try {
          handler(payload)
        } catch (error) {
          setTimeout(() => {
            throw error
          })
        }
      }
    }
  }

  // --- DOM ----------------------------------------------------------------------

  let uniqueId = 0

  function createNode(tag, properties = {}, styles = {}) {
    const node = document.createElement(tag)
    Object.assign(node, properties)
    Object.assign(node.style, styles)
    return node
  }

  // --- Appearance (https://docs.stripe.com/elements/appearance-api) ------------------
  // Like Stripe.js: a base theme ('stripe', 'night', 'flat'), its variables overridden
  // by `appearance.variables`, then `appearance.rules` for .Input, .Label and .Error
  // (and .Input:focus). Applied as element styles (no <style>, so the page's CSP holds).

  const THEMES = {
    stripe: {
      colorPrimary: '#0570de',
      colorBackground: '#ffffff',
      colorText: '#30313d',
      colorTextSecondary: '#6d6e78',
      colorTextPlaceholder: '#757680',
      colorDanger: '#df1b41',
      colorBorder: '#e6e6e6',
    },
    night: {
      colorPrimary: '#0570de',
      colorBackground: '#30313d',
      colorText: '#ffffff',
      colorTextSecondary: '#a3a3ab',
      colorTextPlaceholder: '#a3a3ab',
      colorDanger: '#fe87a1',
      colorBorder: '#424353',
    },
    flat: {
      colorPrimary: '#0570de',
      colorBackground: '#f1f1f1',
      colorText: '#30313d',
      colorTextSecondary: '#6d6e78',
      colorTextPlaceholder: '#757680',
      colorDanger: '#df1b41',
      colorBorder: '#f1f1f1',
    },
  }

  function themeOf(appearance = {}) {
    const base = THEMES[appearance.theme] || THEMES.stripe
    const variables = {
      ...base,
      fontFamily: 'system-ui, sans-serif',
      borderRadius: '4px',
      fontSizeBase: '14px',
      ...(appearance.variables || {}),
    }
    const rules = appearance.rules || {}
    return { ...variables, rules }
  }

  const RULE_PROPERTIES = new Set([
    'color',
    'backgroundColor',
    'background',
    'border',
    'borderColor',
    'borderWidth',
    'borderStyle',
    'borderRadius',
    'boxShadow',
    'outline',
    'outlineOffset',
    'padding',
    'fontSize',
    'fontWeight',
    'fontFamily',
    'lineHeight',
    'letterSpacing',
    'textTransform',
    'margin',
    'marginBottom',
  ])

  function applyRule(node, rule) {
    for (const [property, value] of Object.entries(rule || {})) {
      if (RULE_PROPERTIES.has(property)) node.style[property] = String(value)
    }
  }

  function styleInput(input, theme, focused) {
    Object.assign(input.style, {
      boxSizing: 'border-box',
      width: '100%',
      minWidth: '0',
      padding: '10px 12px',
      border: `1px solid ${theme.colorBorder}`,
      borderRadius: theme.borderRadius,
      background: theme.colorBackground,
      color: theme.colorText,
      font: 'inherit',
      fontSize: theme.fontSizeBase,
      outline: focused ? `2px solid ${theme.colorPrimary}` : 'none',
      outlineOffset: focused ? '1px' : '0',
    })
    applyRule(input, theme.rules['.Input'])
    if (focused) applyRule(input, theme.rules['.Input:focus'])
    if (input.getAttribute('aria-invalid') === 'true') applyRule(input, theme.rules['.Input--invalid'])
  }

  function styleLabel(label, theme) {
    Object.assign(label.style, { color: theme.colorText, fontSize: theme.fontSizeBase })
    applyRule(label, theme.rules['.Label'])
  }

  /** A labelled text input; returns the input. */
  function addField(parent, label, properties) {
    const id = `stripe-emulator-field-${++uniqueId}`
    const wrapper = createNode('div', {}, { display: 'grid', gap: '4px', minWidth: '0' })
    const labelNode = createNode('label', { htmlFor: id, textContent: label })
    const input = createNode('input', { id, type: 'text', spellcheck: false, ...properties })
    wrapper.append(labelNode, input)
    parent.append(wrapper)
    return input
  }

  // --- Elements -----------------------------------------------------------------

  const CARD_TYPES = ['payment', 'card']

  class Element extends Emitter {
    constructor(group, type, options) {
      super()
      this.group = group
      this.type = type
      this.options = { ...options }
      this.root = null
      this.inputs = null
      this.isReady = false
      this.destroyed = false
    }

    // A 'ready' listener attached after the element became ready still fires:
    // React attaches listeners in an effect that can run after our 'ready'.
    on(event, handler) {
      super.on(event, handler)
      if (event === 'ready' && this.isReady) setTimeout(() => handler({ elementType: this.type }))
      return this
    }

    mount(target) {
      if (this.destroyed) throw new IntegrationError('This Element has been destroyed and cannot be mounted.')
      const node = typeof target === 'string' ? document.querySelector(target) : target
      if (!node || typeof node.appendChild !== 'function') {
        throw new IntegrationError(`Invalid DOM element or selector passed to mount(): ${target}`)
      }
      if (this.root) this.root.remove()
      this.root = this.render()
      node.appendChild(this.root)
      this.emit('loaderstart', { elementType: this.type })
      setTimeout(() => {
        if (this.destroyed || this.isReady) return
        this.isReady = true
        this.emit('ready', { elementType: this.type })
      })
    }

    unmount() {
      if (this.root) this.root.remove()
    }

    destroy() {
      this.unmount()
      this.root = null
      this.inputs = null
      this.destroyed = true
      this.handlers.clear()
      this.group.forget(this)
    }

    update(options) {
      Object.assign(this.options, options)
      if (this.inputs) {
        for (const input of Object.values(this.inputs)) input.disabled = Boolean(this.options.readOnly || this.options.disabled)
      }
    }

    focus() {
      if (this.inputs) this.inputs.number.focus()
    }

    blur() {
      if (this.inputs) for (const input of Object.values(this.inputs)) input.blur()
    }

    clear() {
      if (!this.inputs) return
      this.inputs.number.value = ''
      this.showError(null)
      this.emit('change', this.changeEvent(null))
    }

    collapse() {}

    /** Applies the group's appearance to what is rendered (again after elements.update({ appearance })). */
    restyle() {
      if (!this.root) return
      const theme = themeOf(this.group.options.appearance)
      Object.assign(this.root.style, { fontFamily: theme.fontFamily, color: theme.colorText })
      for (const label of this.root.querySelectorAll('label')) styleLabel(label, theme)
      for (const input of Object.values(this.inputs || {})) styleInput(input, theme, document.activeElement === input)
      if (this.errorNode) {
        Object.assign(this.errorNode.style, { color: theme.colorDanger, fontSize: theme.fontSizeBase })
        applyRule(this.errorNode, theme.rules['.Error'])
      }
    }

    render() {
      const root = createNode('div', {}, { display: 'grid', gap: '12px', minWidth: '0' })
      root.dataset.stripeEmulatorElement = this.type
      this.root = root
      if (!CARD_TYPES.includes(this.type)) return root

      const row = createNode('div', {}, { display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr)', gap: '12px' })
      this.inputs = {
        number: addField(root, 'Card number', {
          name: 'cardnumber',
          autocomplete: 'cc-number',
          inputMode: 'numeric',
          placeholder: '1234 1234 1234 1234',
        }),
        expiry: addField(row, 'Expiry', {
          name: 'exp-date',
          autocomplete: 'cc-exp',
          inputMode: 'numeric',
          placeholder: 'MM / YY',
          value: defaultExpiry(),
        }),
        cvc: addField(row, 'CVC', { name: 'cvc', autocomplete: 'cc-csc', inputMode: 'numeric', placeholder: 'CVC', value: '123' }),
      }
      root.append(row)
      this.errorNode = createNode('div', { id: `stripe-emulator-error-${++uniqueId}` })
      this.errorNode.setAttribute('role', 'alert')
      root.append(this.errorNode)
      for (const input of Object.values(this.inputs)) {
        input.setAttribute('aria-describedby', this.errorNode.id)
        input.addEventListener('input', () => this.handleInput())
        input.addEventListener('focus', () => {
          this.restyle()
          this.emit('focus', { elementType: this.type })
        })
        input.addEventListener('blur', () => {
          this.restyle()
          this.emit('blur', { elementType: this.type })
        })
        input.addEventListener('keydown', (event) => {
          if (event.key === 'Escape') this.emit('escape', { elementType: this.type })
        })
      }
      this.update({})
      this.restyle()
      return root
    }

    values() {
      const { number, expiry, cvc } = this.inputs
      return { number: number.value, expiry: expiry.value, cvc: cvc.value }
    }

    handleInput() {
      const error = cardError(this.values(), { whileTyping: true })
      this.showError(error)
      this.emit('change', this.changeEvent(error))
    }

    changeEvent(error) {
      const number = onlyDigits(this.inputs ? this.inputs.number.value : '')
      const event = {
        elementType: this.type,
        empty: number.length === 0,
        complete: Boolean(this.inputs) && cardError(this.values(), { whileTyping: false }) === null,
        value: { type: 'card' },
      }
      if (this.type === 'card') event.brand = brandOf(number)
      if (this.type === 'payment') event.collapsed = false
      if (error) event.error = error
      return event
    }

    showError(error) {
      if (!this.errorNode) return
      this.errorNode.textContent = error ? error.message : ''
      this.inputs.number.setAttribute('aria-invalid', String(Boolean(error)))
      this.restyle()
    }

    /** The card's validation error (also shown in the form), or null. */
    validate() {
      if (!this.inputs) return validationError('incomplete_number', 'Your card number is incomplete.')
      const error = cardError(this.values(), { whileTyping: false })
      this.showError(error)
      if (error) this.emit('change', this.changeEvent(error))
      return error
    }

    paymentMethodData() {
      const { number, expiry, cvc } = this.values()
      const { month, year } = parseExpiry(expiry)
      return { type: 'card', card: { number: onlyDigits(number), exp_month: month, exp_year: year, cvc: cvc.trim() } }
    }
  }

  class Elements {
    constructor(stripe, options) {
      this.stripe = stripe
      this.options = { ...options }
      this.byType = new Map()
    }

    create(type, options) {
      if (this.byType.has(type)) throw new IntegrationError(`Can only create one Element of type ${type}.`)
      const element = new Element(this, type, options)
      this.byType.set(type, element)
      return element
    }

    // react-stripe-js components carry their type as __elementType.
    getElement(typeOrComponent) {
      const type = typeof typeOrComponent === 'string' ? typeOrComponent : typeOrComponent && typeOrComponent.__elementType
      return this.byType.get(type) || null
    }

    update(options) {
      Object.assign(this.options, options)
      if (options && options.appearance) for (const element of this.byType.values()) element.restyle()
    }

    fetchUpdates() {
      return Promise.resolve({})
    }

    async submit() {
      const element = this.cardElement()
      if (!element) return { error: validationError('incomplete', 'Mount a Payment Element before calling submit().') }
      const error = element.validate()
      return error ? { error } : {}
    }

    cardElement() {
      return CARD_TYPES.map((type) => this.byType.get(type)).find((element) => element && !element.destroyed) || null
    }

    forget(element) {
      if (this.byType.get(element.type) === element) this.byType.delete(element.type)
    }
  }

  // --- The Stripe object ------------------------------------------------------------

  const unsupported = (name) => () =>
    Promise.resolve({
      error: { type: 'invalid_request_error', message: `stripe.${name}() is not supported by the Stripe emulator.` },
    })

  class StripeClient {
    constructor(publishableKey, options) {
      this.publishableKey = publishableKey
      this.options = options
      this.createPaymentMethod = unsupported('createPaymentMethod')
      this.createToken = unsupported('createToken')
      this.confirmSetup = unsupported('confirmSetup')
      this.confirmCardSetup = unsupported('confirmCardSetup')
      this.retrieveSetupIntent = unsupported('retrieveSetupIntent')
    }

    _registerWrapper() {}

    registerAppInfo() {}

    elements(options) {
      return new Elements(this, options)
    }

    async confirmPayment(options = {}) {
      const { elements, confirmParams = {}, redirect = 'always' } = options
      if (!(elements instanceof Elements)) {
        throw new IntegrationError('Invalid value for confirmPayment(): elements should be an Elements group.')
      }
      const clientSecret = options.clientSecret || elements.options.clientSecret
      const intentId = intentIdFromSecret(clientSecret)
      if (redirect !== 'if_required' && !confirmParams.return_url) {
        throw new IntegrationError(
          "stripe.confirmPayment(): the `confirmParams.return_url` argument is required unless passing `redirect: 'if_required'`",
        )
      }
      const element = elements.cardElement()
      if (!element) throw new IntegrationError('stripe.confirmPayment(): no Payment Element is mounted.')
      const invalid = element.validate()
      if (invalid) return { error: invalid }

      const { payment_method_data: extra = {}, ...rest } = confirmParams
      const result = await this.nextActions(
        await this.confirmIntent(intentId, clientSecret, {
          ...rest,
          payment_method_data: { ...extra, ...element.paymentMethodData() },
        }),
      )
      if (result.error) return { error: result.error }
      if (redirect === 'if_required') return { paymentIntent: result.data }
      redirectTo(confirmParams.return_url, result.data)
      // Like stripe.js: the page is navigating away, so the promise never settles.
      return new Promise(() => {})
    }

    async confirmCardPayment(clientSecret, data = {}) {
      const intentId = intentIdFromSecret(clientSecret)
      const { payment_method: paymentMethod, ...rest } = data
      const params = { ...rest }
      if (typeof paymentMethod === 'string') {
        params.payment_method = paymentMethod
      } else if (paymentMethod && paymentMethod.card instanceof Element) {
        const invalid = paymentMethod.card.validate()
        if (invalid) return { error: invalid }
        params.payment_method_data = {
          billing_details: paymentMethod.billing_details,
          ...paymentMethod.card.paymentMethodData(),
        }
      }
      const result = await this.nextActions(await this.confirmIntent(intentId, clientSecret, params))
      return result.error ? { error: result.error } : { paymentIntent: result.data }
    }

    async retrievePaymentIntent(clientSecret) {
      const result = await this.retrieveIntent(clientSecret)
      return result.error ? { error: result.error } : { paymentIntent: result.data }
    }

    async handleNextAction({ clientSecret }) {
      const result = await this.nextActions(await this.retrieveIntent(clientSecret))
      return result.error ? { error: result.error } : { paymentIntent: result.data }
    }

    handleCardAction(clientSecret) {
      return this.handleNextAction({ clientSecret })
    }

    retrieveIntent(clientSecret) {
      return request('GET', `/v1/payment_intents/${intentIdFromSecret(clientSecret)}`, {
        key: this.publishableKey,
        client_secret: clientSecret,
      })
    }

    /**
     * 3-D Secure, as stripe.js runs it in a modal over the page: the cardholder completes or fails
     * the challenge; a failure (or closing it) is `payment_intent_authentication_failure`, and the
     * page stays where it is (no redirect), as with Stripe.
     */
    async nextActions(result) {
      if (result.error || result.data.status !== 'requires_action') return result
      const intent = result.data
      const outcome = await challenge(intent)
      const answered = await request('POST', `/_emulator/3ds/${intent.id}`, { client_secret: intent.client_secret, outcome })
      if (answered.error) return answered
      if (answered.data.status === 'requires_payment_method' && answered.data.last_payment_error) {
        return { error: { ...answered.data.last_payment_error, payment_intent: answered.data } }
      }
      return answered
    }

    paymentRequest() {
      return { canMakePayment: () => Promise.resolve(null), on() {}, off() {}, show() {}, update() {} }
    }

    confirmIntent(intentId, clientSecret, params) {
      return request('POST', `/v1/payment_intents/${intentId}/confirm`, {
        ...params,
        key: this.publishableKey,
        client_secret: clientSecret,
      })
    }
  }

  /** The challenge dialog (the bank's page in real stripe.js's modal): resolves 'complete' or 'fail'. */
  function challenge(intent) {
    return new Promise((resolve) => {
      const previous = document.activeElement
      const overlay = createNode(
        'div',
        {},
        {
          position: 'fixed',
          inset: '0',
          background: 'rgba(0, 0, 0, 0.6)',
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          zIndex: '2147483647',
        },
      )
      const dialog = createNode(
        'div',
        {},
        {
          background: '#ffffff',
          color: '#1a1a1a',
          padding: '24px',
          borderRadius: '8px',
          width: 'min(360px, calc(100% - 32px))',
          fontFamily: 'system-ui, sans-serif',
          boxShadow: '0 10px 30px rgba(0, 0, 0, 0.3)',
        },
      )
      dialog.setAttribute('role', 'dialog')
      dialog.setAttribute('aria-modal', 'true')
      const heading = createNode(
        'h2',
        { id: `stripe-3ds-${intent.id}`, textContent: '3D Secure test page' },
        { margin: '0 0 12px', fontSize: '18px' },
      )
      dialog.setAttribute('aria-labelledby', heading.id)
      const amount = new Intl.NumberFormat('en-US', { style: 'currency', currency: intent.currency.toUpperCase() }).format(
        intent.amount / 100,
      )
      const text = createNode('p', { textContent: `Authenticate this test payment of ${amount}.` }, { margin: '0 0 16px' })
      const done = (outcome) => {
        document.removeEventListener('keydown', onKey, true)
        overlay.remove()
        if (previous && typeof previous.focus === 'function') previous.focus()
        resolve(outcome)
      }
      const onKey = (event) => {
        if (event.key === 'Escape') done('fail')
      }
      const button = (label, outcome, primary) => {
        const node = createNode(
          'button',
          { type: 'button', textContent: label },
          {
            display: 'block',
            width: '100%',
            margin: '8px 0 0',
            padding: '10px 12px',
            borderRadius: '6px',
            border: primary ? '1px solid #0a58ca' : '1px solid #6b7280',
            background: primary ? '#0a58ca' : '#ffffff',
            color: primary ? '#ffffff' : '#1a1a1a',
            fontSize: '15px',
            cursor: 'pointer',
          },
        )
        node.addEventListener('click', () => done(outcome))
        return node
      }
      const complete = button('Complete authentication', 'complete', true)
      dialog.append(heading, text, complete, button('Fail authentication', 'fail', false))
      overlay.append(dialog)
      document.body.append(overlay)
      document.addEventListener('keydown', onKey, true)
      complete.focus()
    })
  }

  function redirectTo(returnUrl, paymentIntent) {
    const url = new URL(returnUrl, window.location.href)
    url.searchParams.set('payment_intent', paymentIntent.id)
    url.searchParams.set('payment_intent_client_secret', paymentIntent.client_secret)
    url.searchParams.set('redirect_status', paymentIntent.status === 'succeeded' ? 'succeeded' : paymentIntent.status)
    window.location.assign(url.toString())
  }

  function Stripe(publishableKey, options) {
    if (typeof publishableKey !== 'string' || !publishableKey.startsWith('pk_')) {
      throw new IntegrationError(`Invalid value for Stripe(): apiKey should be a publishable key (pk_…). You specified: ${publishableKey}.`)
    }
    return new StripeClient(publishableKey, options || {})
  }
  // @stripe/stripe-js compares this with the release train it was built for.
  Stripe.version = 'endive'

  window.Stripe = Stripe
})()
